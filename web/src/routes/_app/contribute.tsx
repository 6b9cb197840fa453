import { createFileRoute } from "@tanstack/react-router";
import { ContributePage } from "../../features/contribute/ContributePage";
import { prefillUrl } from "../../features/contribute/prefill";

interface Search {
  url?: string;
}

export const Route = createFileRoute("/_app/contribute")({
  validateSearch: (s: Record<string, unknown>): Search => ({ url: prefillUrl(s.url) }),
  component: ContributeRoute,
});

function ContributeRoute() {
  const { url } = Route.useSearch();
  // A new ?url= (another link followed while here) starts the page afresh.
  return <ContributePage key={url ?? ""} initialUrl={url} />;
}
