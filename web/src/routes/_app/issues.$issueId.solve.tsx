import { createFileRoute } from "@tanstack/react-router";
import { SolvePage } from "../../features/solve/SolvePage";

export const Route = createFileRoute("/_app/issues/$issueId/solve")({
  validateSearch: (s: Record<string, unknown>): { run?: string; start?: boolean; branch?: string } => ({
    ...(typeof s.run === "string" && s.run ? { run: s.run } : {}),
    // Set by "Import & Solve with AI": start the solve on arrival.
    ...(s.start === true || s.start === "1" || s.start === 1 ? { start: true } : {}),
    // Set by "Solve again on <branch>" on the validation page: the base branch preselected.
    ...(typeof s.branch === "string" && s.branch ? { branch: s.branch.slice(0, 255) } : {}),
  }),
  component: SolveRoute,
});

function SolveRoute() {
  const { issueId } = Route.useParams();
  const { run, start, branch } = Route.useSearch();
  return <SolvePage key={issueId} issueId={issueId} runId={run} start={start} branch={branch} />;
}
