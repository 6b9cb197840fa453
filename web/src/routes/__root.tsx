import type { QueryClient } from "@tanstack/react-query";
import { Outlet, createRootRouteWithContext, Link } from "@tanstack/react-router";
import { Toaster } from "sonner";
import { useTheme } from "../theme/theme";
import { useMediaQuery } from "../ui/useMediaQuery";

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
  // Bottom corner: the top bar (search, bell, theme, sync) stays clickable while a toast shows.
  const wide = useMediaQuery("(min-width: 640px)");
  return (
    <>
      <Outlet />
      <Toaster closeButton position={wide ? "bottom-right" : "bottom-center"} theme={theme} />
    </>
  );
}
