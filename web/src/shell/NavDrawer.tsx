import type { KeyboardEvent } from "react";
import type { User } from "../api/types";
import { CloseButton } from "../ui/Dialog";
import { useModalDialog } from "../ui/useModalDialog";
import { Logo } from "./Logo";
import { NavLinks } from "./Sidebar";
import { UserMenu } from "./UserMenu";

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Keeps Tab and Shift+Tab inside `box`. */
export function trapTab(e: KeyboardEvent<HTMLElement>, box: HTMLElement | null) {
  if (e.key !== "Tab" || !box) return;
  const items = [...box.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null);
  const first = items[0];
  const last = items.at(-1);
  if (!first || !last) return;
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}

/** The main navigation with labels, as a modal drawer for small screens (Escape or a link closes it). */
export function NavDrawer({
  open,
  onClose,
  user,
  onPreferences,
  onShortcuts,
}: {
  open: boolean;
  onClose: () => void;
  user: User;
  onPreferences: () => void;
  onShortcuts: () => void;
}) {
  const ref = useModalDialog(open, '[aria-current="page"]');
  return (
    <dialog
      ref={ref}
      id="nav-drawer"
      aria-label="Menu"
      onClose={onClose}
      onKeyDown={(e) => trapTab(e, ref.current)}
      onClick={(e) => e.target === ref.current && onClose()}
      className="m-0 h-dvh max-h-none w-72 max-w-[85vw] bg-white p-0 text-slate-900 shadow-xl backdrop:bg-black/50 dark:bg-slate-900 dark:text-slate-100"
    >
      {open && (
        <nav aria-label="Main" className="flex h-full flex-col">
          <div className="flex h-14 items-center justify-between border-b border-slate-200 px-3 dark:border-slate-800">
            <Logo />
            <CloseButton onClose={onClose} label="Close menu" large />
          </div>
          <div className="flex flex-1 flex-col overflow-y-auto pt-3">
            <NavLinks labels="always" onNavigate={onClose} />
          </div>
          <UserMenu
            user={user}
            expanded
            onNavigate={onClose}
            onPreferences={() => (onClose(), onPreferences())}
            onShortcuts={() => (onClose(), onShortcuts())}
          />
        </nav>
      )}
    </dialog>
  );
}
