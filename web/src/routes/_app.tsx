import { useRef } from "react";
import { Navigate, Outlet, createFileRoute, useLocation } from "@tanstack/react-router";
import { isLoggingOut, useAuth } from "../auth/auth";
import { safeAppPath } from "../auth/return-to";
import { AppShell } from "../shell/AppShell";
import { Spinner } from "../ui/ui";

/** Every signed-in page: checks the session, then renders inside the shell. */
export const Route = createFileRoute("/_app")({ component: AppLayout });

function AppLayout() {
  const { user, loading } = useAuth();
  const href = useLocation({ select: (l) => l.href });
  // The app page asked for: kept while the layout still renders during the move to /auth (not an app page).
  const asked = useRef<string | null>(null);
  const here = safeAppPath(href);
  if (here) asked.current = here;
  if (loading) return <Spinner label="Checking authentication..." />;
  // Signed out: sign in first, then come back to the page asked for.
  if (!user) {
    if (isLoggingOut()) return <Navigate to="/" replace />;
    const next = asked.current;
    return <Navigate to="/auth" search={next ? { next } : {}} replace />;
  }
  return (
    <AppShell user={user}>
      <Outlet />
    </AppShell>
  );
}
