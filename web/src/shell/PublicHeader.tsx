import { Link } from "@tanstack/react-router";
import { useAuth } from "../auth/auth";
import { ThemeSwitcher } from "../theme/ThemeSwitcher";
import { buttonClass } from "../ui/ui";
import { Logo } from "./Logo";
import { SandboxBadge } from "./TopBar";

/** Header of the public pages outside the app shell. */
export function PublicHeader() {
  const { user } = useAuth();
  return (
    <header className="flex items-center gap-3 border-b border-slate-200 px-4 py-3 dark:border-slate-800">
      <Link to="/" aria-label="Fixloop home" className="rounded">
        <Logo />
      </Link>
      <SandboxBadge />
      <span className="ml-auto flex items-center gap-3">
        <ThemeSwitcher />
        {user ? (
          <Link to="/dashboard" className={buttonClass("secondary")}>
            Dashboard
          </Link>
        ) : (
          <Link to="/auth" className={buttonClass("primary")}>
            Get Started
          </Link>
        )}
      </span>
    </header>
  );
}
