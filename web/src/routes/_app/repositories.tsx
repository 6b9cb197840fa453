import { createFileRoute } from "@tanstack/react-router";
import { RepositoriesPage } from "../../features/repositories/RepositoriesPage";

interface Search {
  authorized?: boolean;
  error?: string;
}

export const Route = createFileRoute("/_app/repositories")({
  validateSearch: (s: Record<string, unknown>): Search => ({
    authorized: s.authorized === true || s.authorized === "true" ? true : undefined,
    error: typeof s.error === "string" ? s.error : undefined,
  }),
  component: RepositoriesRoute,
});

function RepositoriesRoute() {
  const { authorized, error } = Route.useSearch();
  return <RepositoriesPage authorized={authorized} error={error} />;
}
