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

/**
 * Phones: a compact toast over the sticky top bar that taps go through (only its × takes them), so
 * it never blocks a button beneath it nor holds itself open under a resting finger (sonner pauses
 * its timer while the pointer is over it); 3 s, one at a time. At the bottom it sat over the
 * buttons a thumb had just pressed (a page's actions end the page); under the bar it covered the
 * page's own first actions. Over the bar it hides no page content, and the bar's buttons still
 * take taps through it.
 */
/** A phone's toast sits within the top bar (h-14, 56 px): a one-line toast is about 44 px tall. */
const PHONE_TOAST_TOP = 6;
const PHONE_TOAST = {
  style: { padding: "10px 12px", minHeight: 0, pointerEvents: "none" },
  classNames: { closeButton: "pointer-events-auto" },
} as const;

function Root() {
  const theme = useTheme();
  // Wide screens: bottom right, beside the content; the top bar (search, bell, theme) stays clear.
  const wide = useMediaQuery("(min-width: 640px)");
  return (
    <>
      <Outlet />
      <Toaster
        closeButton
        position={wide ? "bottom-right" : "top-center"}
        mobileOffset={{ top: PHONE_TOAST_TOP, left: 8, right: 8 }}
        visibleToasts={wide ? 3 : 1}
        duration={wide ? 4000 : 3000}
        toastOptions={wide ? undefined : PHONE_TOAST}
        theme={theme}
      />
    </>
  );
}
