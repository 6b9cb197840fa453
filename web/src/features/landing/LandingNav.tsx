import { useEffect, useRef, useState } from "react";
import { Link } from "@tanstack/react-router";
import { Menu, X } from "lucide-react";
import { Logo } from "../../shell/Logo";
import { SandboxBadge } from "../../shell/TopBar";
import { ThemeSwitcher } from "../../theme/ThemeSwitcher";
import { buttonClass } from "../../ui/ui";

const SECTIONS = [
  { href: "#features", label: "Features" },
  { href: "#how-it-works", label: "How It Works" },
  { href: "#benefits", label: "Benefits" },
];

/** The landing page's header: section links inline on wider screens, behind a Menu button on small ones. */
export function LandingNav() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);
  const close = () => setOpen(false);
  return (
    <header className="sticky top-0 z-10 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <nav aria-label="Main" className="mx-auto flex max-w-6xl items-center gap-x-3 px-4 py-3 text-sm sm:gap-x-5">
        <Link to="/" aria-label="Fixloop home" className="rounded">
          <Logo />
        </Link>
        <SandboxBadge />
        {SECTIONS.map((s) => (
          <a key={s.href} href={s.href} className="hidden sm:inline">
            {s.label}
          </a>
        ))}
        <Link to="/pricing" className="hidden sm:inline">
          Pricing
        </Link>
        <span className="ml-auto flex items-center gap-2 sm:gap-3">
          <span className="hidden sm:block">
            <ThemeSwitcher />
          </span>
          <Link to="/auth" className={`${buttonClass("primary")} whitespace-nowrap`}>
            Get Started
          </Link>
          <button
            ref={button}
            type="button"
            onClick={() => setOpen((v) => !v)}
            aria-expanded={open}
            aria-controls="landing-menu"
            className="flex items-center gap-1 rounded-lg border border-slate-300 px-2 py-2 sm:hidden dark:border-slate-700"
          >
            {open ? <X className="size-4" aria-hidden /> : <Menu className="size-4" aria-hidden />} Menu
          </button>
        </span>
      </nav>
      {open && (
        <ul id="landing-menu" className="border-t border-slate-200 px-4 py-2 text-base sm:hidden dark:border-slate-800">
          {SECTIONS.map((s) => (
            <li key={s.href}>
              <a
                href={s.href}
                onClick={close}
                className="block rounded-lg px-2 py-3 hover:bg-slate-100 dark:hover:bg-slate-800"
              >
                {s.label}
              </a>
            </li>
          ))}
          <li>
            <Link
              to="/pricing"
              onClick={close}
              className="block rounded-lg px-2 py-3 hover:bg-slate-100 dark:hover:bg-slate-800"
            >
              Pricing
            </Link>
          </li>
          <li className="flex items-center justify-between px-2 py-2">
            <span>Theme</span>
            <ThemeSwitcher />
          </li>
        </ul>
      )}
    </header>
  );
}
