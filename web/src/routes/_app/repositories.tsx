import { createFileRoute } from "@tanstack/react-router";
import { RepositoriesPage } from "../../features/repositories/RepositoriesPage";

interface Search {
  authorized?: boolean;
  installed?: "true" | "pending";
  error?: string;
}

export const Route = createFileRoute("/_app/repositories")({
  validateSearch: (s: Record<string, unknown>): Search => ({
    authorized: s.authorized === true || s.authorized === "true" ? true : undefined,
    installed:
      s.installed === "true" || s.installed === true ? "true" : s.installed === "pending" ? "pending" : undefined,
    error: typeof s.error === "string" ? s.error : undefined,
  }),
  component: RepositoriesRoute,
});

function RepositoriesRoute() {
  const { authorized, installed, error } = Route.useSearch();
  return <RepositoriesPage authorized={authorized} installed={installed} error={error} />;
}
