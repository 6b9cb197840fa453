import { useEffect, useRef } from "react";

/**
 * Opens the native <dialog> as a modal while `open` holds and closes it otherwise; on opening,
 * the element matching `focus` inside it takes the focus.
 */
export function useModalDialog(open: boolean, focus: string) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      d.showModal();
      d.querySelector<HTMLElement>(focus)?.focus();
    }
    if (!open && d.open) d.close();
  }, [open, focus]);
  return ref;
}
