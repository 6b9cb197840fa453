import { createFileRoute } from "@tanstack/react-router";
import { AuthPage } from "../features/auth/AuthPage";

export const Route = createFileRoute("/auth/")({
  validateSearch: (s: Record<string, unknown>): { error?: string } =>
    typeof s.error === "string" ? { error: s.error } : {},
  component: AuthRoute,
});

function AuthRoute() {
  const { error } = Route.useSearch();
  return <AuthPage error={error} />;
}
