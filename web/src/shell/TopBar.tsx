import { Link } from "@tanstack/react-router";
import { useQuery } from "@tanstack/react-query";
import { Menu, Search } from "lucide-react";
import { configQuery } from "../api/auth.queries";
import { ThemeSwitcher } from "../theme/ThemeSwitcher";
import { NotificationsBell } from "./NotificationsBell";
import { Logo } from "./Logo";

export function TopBar({
  onSearch,
  onMenu,
  menuOpen,
}: {
  onSearch: () => void;
  onMenu: () => void;
  menuOpen: boolean;
}) {
  const mac = typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform);
  return (
    <header className="sticky top-0 z-20 flex h-14 items-center gap-2 border-b border-slate-200 bg-white/90 px-3 backdrop-blur sm:gap-4 sm:px-4 dark:border-slate-800 dark:bg-slate-950/90">
      <button
        type="button"
        onClick={onMenu}
        aria-label="Open menu"
        aria-haspopup="dialog"
        aria-expanded={menuOpen}
        aria-controls="nav-drawer"
        className="-ml-1 shrink-0 rounded-lg p-2 hover:bg-slate-100 md:hidden dark:hover:bg-slate-800"
      >
        <Menu className="size-5" aria-hidden />
      </button>
      <Link to="/dashboard" aria-label="Fixloop home" className="shrink-0 rounded">
        <Logo />
      </Link>
      <SandboxBadge />
      <button
        type="button"
        onClick={onSearch}
        aria-keyshortcuts="Control+K Meta+K"
        data-testid="top-search"
        className="ml-auto flex shrink-0 items-center gap-2 rounded-lg border border-slate-300 p-2 text-sm text-slate-600 sm:min-w-0 sm:flex-1 sm:px-2 sm:py-1.5 sm:max-w-sm dark:border-slate-700 dark:text-slate-400"
      >
        <Search className="size-4 shrink-0" aria-hidden />
        <span className="sr-only sm:not-sr-only sm:min-w-0 sm:truncate">Search issues, repos...</span>
        <kbd className="ml-auto hidden rounded border border-slate-300 px-1.5 text-xs sm:inline dark:border-slate-600">
          {mac ? "⌘" : "Ctrl"} K
        </kbd>
      </button>
      <NotificationsBell />
      <ThemeSwitcher />
    </header>
  );
}

export function SandboxBadge() {
  const { data } = useQuery(configQuery());
  if (!data?.sandbox.length) return null;
  return (
    <span
      title={`Stand-ins in use: ${data.sandbox.join(", ")}`}
      className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-900/50 dark:text-amber-100"
    >
      Sandbox
    </span>
  );
}
