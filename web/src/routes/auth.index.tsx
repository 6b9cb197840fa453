import { createFileRoute } from "@tanstack/react-router";
import { AuthPage } from "../features/auth/AuthPage";
import { safeAppPath } from "../auth/return-to";

export const Route = createFileRoute("/auth/")({
  validateSearch: (s: Record<string, unknown>): { error?: string; next?: string } => {
    const next = safeAppPath(s.next);
    return { ...(typeof s.error === "string" ? { error: s.error } : {}), ...(next ? { next } : {}) };
  },
  component: AuthRoute,
});

function AuthRoute() {
  const { error, next } = Route.useSearch();
  return <AuthPage error={error} next={next} />;
}
