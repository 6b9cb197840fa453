import type { QueryClient } from "@tanstack/react-query";
import { Outlet, createRootRouteWithContext, Link } from "@tanstack/react-router";
import { Toaster } from "sonner";
import { useTheme } from "../theme/theme";

export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: Root,
  notFoundComponent: () => (
    <main className="mx-auto max-w-lg p-10 text-center">
      <h1 className="text-2xl font-semibold">Page not found</h1>
      <Link to="/" className="mt-4 inline-block text-violet-700 underline dark:text-violet-300">
        Go home
      </Link>
    </main>
  ),
});

function Root() {
  const theme = useTheme();
  return (
    <>
      <Outlet />
      <Toaster closeButton position="top-right" theme={theme} />
    </>
  );
}
