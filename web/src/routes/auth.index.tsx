import { createFileRoute } from "@tanstack/react-router";
import { AuthPage } from "../features/auth/AuthPage";
import { safeAppPath } from "../auth/return-to";

export const Route = createFileRoute("/auth/")({
  validateSearch: (s: Record<string, unknown>): { error?: string; next?: string } => {
    // Every key is set, even to undefined: the parent's raw search would otherwise show through.
    return { error: typeof s.error === "string" ? s.error : undefined, next: safeAppPath(s.next) ?? undefined };
  },
  component: AuthRoute,
});

function AuthRoute() {
  const { error, next } = Route.useSearch();
  return <AuthPage error={error} next={next} />;
}
