import type { QueryClient } from "@tanstack/react-query";
import { lazy, Suspense, type CSSProperties } from "react";
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

const PHONE_CLOSE_BUTTON = {
  "--toast-close-button-start": "unset",
  "--toast-close-button-end": "10px",
  "--toast-close-button-transform": "translateY(10px)",
} as CSSProperties;

function Root() {
  const theme = useTheme();
  // Wide: the bottom corner, so the top bar (search, bell, theme, sync) stays clickable. Phones: a
  // full-width bottom toast would sit on the page's action buttons, so a short one covers the top bar
  // instead (swipe up or × dismisses it; the page's own buttons stay free).
  const wide = useMediaQuery("(min-width: 640px)");
  return (
    <>
      <Outlet />
      <Toaster
        closeButton
        position={wide ? "bottom-right" : "top-center"}
        mobileOffset={{ top: 4, left: 8, right: 8 }}
        visibleToasts={wide ? 3 : 1}
        duration={wide ? 4000 : 3000}
        toastOptions={wide ? undefined : { style: { padding: "10px 40px 10px 12px", minHeight: 0 } }}
        // Phones: the × sits inside the toast's right end (sonner's corner spot is off-screen at the top edge).
        style={wide ? undefined : PHONE_CLOSE_BUTTON}
        theme={theme}
      />
    </>
  );
}
