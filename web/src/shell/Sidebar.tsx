import { Link, useLocation } from "@tanstack/react-router";
import type { User } from "../api/types";
import { NAV_ITEMS, RAIL_FOCUS, RAIL_FOCUS_LABEL, isActive } from "./nav";
import { UserMenu } from "./UserMenu";

/** The main links; `labels` "hover" shows them only while the rail is expanded. */
export function NavLinks({ labels, onNavigate }: { labels: "hover" | "always"; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const label = labels === "hover" ? `opacity-0 transition-opacity group-hover:opacity-100 ${RAIL_FOCUS_LABEL}` : "";
  return (
    <ul className="flex flex-1 flex-col gap-1 px-2">
      {NAV_ITEMS.map(({ to, label: text, Icon }) => {
        const active = isActive(pathname, to);
        return (
          <li key={to}>
            <Link
              to={to}
              onClick={onNavigate}
              aria-current={active ? "page" : undefined}
              className={`flex items-center gap-3 overflow-hidden rounded-lg px-2.5 py-2 text-sm whitespace-nowrap ${
                active
                  ? "bg-violet-100 font-medium text-violet-900 dark:bg-violet-900/40 dark:text-violet-100"
                  : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
              }`}
            >
              <Icon className="size-5 shrink-0" aria-hidden />
              <span className={label}>{text}</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}

/** Icon rail that expands on hover or keyboard focus (medium screens and up; smaller ones use the drawer). */
export function Sidebar({
  user,
  onPreferences,
  onShortcuts,
}: {
  user: User;
  onPreferences: () => void;
  onShortcuts: () => void;
}) {
  return (
    <nav
      aria-label="Main"
      className={`group fixed inset-y-0 left-0 z-30 hidden w-14 flex-col border-r border-slate-200 bg-white transition-[width] duration-150 hover:w-56 ${RAIL_FOCUS} md:flex dark:border-slate-800 dark:bg-slate-900`}
    >
      <div className="mt-16 flex flex-1 flex-col">
        <NavLinks labels="hover" />
      </div>
      <UserMenu user={user} onPreferences={onPreferences} onShortcuts={onShortcuts} />
    </nav>
  );
}
