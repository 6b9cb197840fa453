import { useEffect, useRef } from "react";

/** Closes a popover on a click outside the returned ref's element or on Escape, while it is open. */
export function useDismiss<E extends HTMLElement>(open: boolean, close: () => void) {
  const ref = useRef<E>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) close();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") close();
    };
    document.addEventListener("mousedown", onDown);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [open, close]);
  return ref;
}
