import type { QueryClient } from "@tanstack/react-query";
import { lazy, Suspense } from "react";
import { Outlet, createRootRouteWithContext } from "@tanstack/react-router";
import { Toaster } from "sonner";
import { useTheme } from "../theme/theme";
import { useMediaQuery } from "../ui/useMediaQuery";

const NotFoundPage = lazy(() => import("../shell/NotFoundPage"));

export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: Root,
  // Its own chunk: the header it shows reads the session, which the landing page does not load up front.
  notFoundComponent: () => (
    <Suspense fallback={null}>
      <NotFoundPage />
    </Suspense>
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
