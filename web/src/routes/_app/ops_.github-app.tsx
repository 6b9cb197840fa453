import { createFileRoute } from "@tanstack/react-router";
import { GithubAppPage } from "../../features/ops/GithubAppPage";

interface Search {
  created?: string;
  error?: string;
  slug?: string;
  org?: string;
}

const text = (v: unknown) => (typeof v === "string" && v.length <= 200 ? v : undefined);

export const Route = createFileRoute("/_app/ops_/github-app")({
  validateSearch: (s: Record<string, unknown>): Search => ({
    created: text(s.created),
    error: text(s.error),
    slug: text(s.slug),
    org: text(s.org),
  }),
  component: GithubAppRoute,
});

function GithubAppRoute() {
  const search = Route.useSearch();
  return <GithubAppPage {...search} />;
}
