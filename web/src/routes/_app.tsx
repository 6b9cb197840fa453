import { Navigate, Outlet, createFileRoute, useLocation } from "@tanstack/react-router";
import { useAuth } from "../auth/auth";
import { safeAppPath } from "../auth/return-to";
import { AppShell } from "../shell/AppShell";
import { Spinner } from "../ui/ui";

/** Every signed-in page: checks the session, then renders inside the shell. */
export const Route = createFileRoute("/_app")({ component: AppLayout });

function AppLayout() {
  const { user, loading } = useAuth();
  const href = useLocation({ select: (l) => l.href });
  if (loading) return <Spinner label="Checking authentication..." />;
  // Signed out: sign in first, then come back to the page asked for.
  if (!user) {
    const next = safeAppPath(href);
    return <Navigate to="/auth" search={next ? { next } : {}} replace />;
  }
  return (
    <AppShell user={user}>
      <Outlet />
    </AppShell>
  );
}
