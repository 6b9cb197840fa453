import { createFileRoute } from "@tanstack/react-router";
import { SolvePage } from "../../features/solve/SolvePage";

export const Route = createFileRoute("/_app/issues/$issueId/solve")({
  validateSearch: (s: Record<string, unknown>): { run?: string } =>
    typeof s.run === "string" && s.run ? { run: s.run } : {},
  component: SolveRoute,
});

function SolveRoute() {
  const { issueId } = Route.useParams();
  const { run } = Route.useSearch();
  return <SolvePage key={issueId} issueId={issueId} runId={run} />;
}
