import { useCallback, useState } from "react";
import { Link } from "@tanstack/react-router";
import { Activity, CreditCard, Keyboard, LogOut, Settings, SlidersHorizontal } from "lucide-react";
import type { User } from "../api/types";
import { useLogout } from "../auth/auth";
import { Avatar } from "../ui/Avatar";
import { useDismiss } from "../ui/useDismiss";
import { RAIL_FOCUS_LABEL } from "./nav";

const item =
  "flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm hover:bg-slate-100 dark:hover:bg-slate-800";

/**
 * `expanded` shows the name at all times (in the drawer) instead of only while the rail is expanded;
 * `onNavigate` runs when a choice leaves the page (the drawer closes itself with it).
 */
export function UserMenu({
  user,
  onPreferences,
  onShortcuts,
  onNavigate,
  expanded = false,
}: {
  user: User;
  onPreferences: () => void;
  onShortcuts: () => void;
  onNavigate?: () => void;
  expanded?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const closeMenu = useCallback(() => setOpen(false), []);
  const ref = useDismiss<HTMLDivElement>(open, closeMenu);
  const logout = useLogout();
  const close = () => setOpen(false);
  const go = () => (close(), onNavigate?.());
  return (
    <div ref={ref} className="relative border-t border-slate-200 p-2 dark:border-slate-800">
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={`User menu for ${user.username}`}
        onClick={() => setOpen((v) => !v)}
        className="flex w-full items-center gap-2 overflow-hidden rounded-lg p-1 text-left hover:bg-slate-100 dark:hover:bg-slate-800"
      >
        <Avatar url={user.avatarUrl} name={user.username} />
        <span
          className={`min-w-0 ${expanded ? "" : `opacity-0 transition-opacity group-hover:opacity-100 ${RAIL_FOCUS_LABEL}`}`}
        >
          <span className="block truncate text-sm font-medium">{user.username}</span>
          <span className="block truncate text-xs text-slate-600 dark:text-slate-400">{user.email ?? ""}</span>
        </span>
      </button>
      {open && (
        <div
          role="menu"
          aria-label="User menu"
          className="absolute bottom-full left-2 mb-1 w-60 rounded-xl border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
        >
          <div className="border-b border-slate-200 px-3 py-2 dark:border-slate-700">
            <p className="truncate text-sm font-medium">{user.username}</p>
            <p className="truncate text-xs text-slate-600 dark:text-slate-400">{user.email ?? ""}</p>
          </div>
          <Link role="menuitem" to="/pricing" className={item} onClick={go}>
            <CreditCard className="size-4" aria-hidden /> Pricing &amp; Billing
          </Link>
          <Link role="menuitem" to="/profile-settings" className={item} onClick={go}>
            <Settings className="size-4" aria-hidden /> Profile Settings
          </Link>
          {user.isAdmin && (
            <Link role="menuitem" to="/ops" className={item} onClick={go}>
              <Activity className="size-4" aria-hidden /> Operations
            </Link>
          )}
          <button role="menuitem" type="button" className={item} onClick={() => (close(), onPreferences())}>
            <SlidersHorizontal className="size-4" aria-hidden /> Preferences
          </button>
          <button role="menuitem" type="button" className={item} onClick={() => (close(), onShortcuts())}>
            <Keyboard className="size-4" aria-hidden /> Keyboard Shortcuts
          </button>
          <button role="menuitem" type="button" className={item} onClick={() => (go(), void logout())}>
            <LogOut className="size-4" aria-hidden /> Logout
          </button>
        </div>
      )}
    </div>
  );
}
