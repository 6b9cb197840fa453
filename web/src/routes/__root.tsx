import type { QueryClient } from "@tanstack/react-query";
import { Outlet, createRootRouteWithContext, Link } from "@tanstack/react-router";
import { Toaster } from "sonner";
import { PublicHeader } from "../shell/PublicHeader";
import { useTheme } from "../theme/theme";
import { useMediaQuery } from "../ui/useMediaQuery";

export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: Root,
  notFoundComponent: () => (
    <>
      <PublicHeader />
      <main className="mx-auto max-w-lg p-10 text-center">
        <h1 className="text-2xl font-semibold">Page not found</h1>
        <p className="mt-2 text-slate-600 dark:text-slate-300">There is no page at this address.</p>
        <div className="mt-4 flex justify-center gap-4">
          <Link to="/dashboard" className="text-violet-700 underline dark:text-violet-300">
            Dashboard
          </Link>
          <Link to="/" className="text-violet-700 underline dark:text-violet-300">
            Home
          </Link>
        </div>
      </main>
    </>
  ),
});

function Root() {
  const theme = useTheme();
  // Bottom corner: the top bar (search, bell, theme, sync) stays clickable while a toast shows.
  const wide = useMediaQuery("(min-width: 640px)");
  return (
    <>
      <Outlet />
      <Toaster closeButton position={wide ? "bottom-right" : "bottom-center"} theme={theme} />
    </>
  );
}
