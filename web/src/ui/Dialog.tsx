import type { ReactNode } from "react";
import { X } from "lucide-react";
import { useModalDialog } from "./useModalDialog";

/** A modal on the native <dialog>: focus trap, Escape and backdrop come from the browser; `data-autofocus` marks the element focused on open. */
export function Dialog({
  open,
  onClose,
  title,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
}) {
  const ref = useModalDialog(open, "[data-autofocus]");
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-label={title}
      className="m-auto w-[min(32rem,calc(100vw-2rem))] rounded-xl bg-white p-0 text-slate-900 shadow-xl backdrop:bg-black/50 dark:bg-slate-900 dark:text-slate-100"
    >
      {open && (
        <div className="p-5">
          <DialogHeader onClose={onClose}>{title}</DialogHeader>
          {children}
        </div>
      )}
    </dialog>
  );
}

/** A dialog's title with its Close button. */
export function DialogHeader({ id, onClose, children }: { id?: string; onClose: () => void; children: ReactNode }) {
  return (
    <div className="mb-4 flex items-center justify-between">
      <h2 id={id} className="text-lg font-semibold">
        {children}
      </h2>
      <CloseButton onClose={onClose} />
    </div>
  );
}

/** The X that closes a dialog or drawer; `large` for a drawer's header. */
export function CloseButton({
  onClose,
  label = "Close",
  large,
}: {
  onClose: () => void;
  label?: string;
  large?: boolean;
}) {
  return (
    <button
      type="button"
      onClick={onClose}
      aria-label={label}
      className={`rounded hover:bg-slate-100 dark:hover:bg-slate-800 ${large ? "p-2" : "p-1"}`}
    >
      <X className={large ? "size-5" : "size-4"} aria-hidden />
    </button>
  );
}
