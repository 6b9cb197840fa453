import { Navigate, Outlet, createFileRoute } from "@tanstack/react-router";
import { useAuth } from "../auth/auth";
import { AppShell } from "../shell/AppShell";
import { Spinner } from "../ui/ui";

/** Every signed-in page: checks the session, then renders inside the shell. */
export const Route = createFileRoute("/_app")({ component: AppLayout });

function AppLayout() {
  const { user, loading } = useAuth();
  if (loading) return <Spinner label="Checking authentication..." />;
  if (!user) return <Navigate to="/" replace />;
  return (
    <AppShell user={user}>
      <Outlet />
    </AppShell>
  );
}
