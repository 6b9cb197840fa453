import type { ButtonHTMLAttributes, ReactNode } from "react";
import { Loader2 } from "lucide-react";

type Variant = "primary" | "secondary" | "danger" | "ghost";
const VARIANTS: Record<Variant, string> = {
  primary: "bg-violet-700 text-white hover:bg-violet-800 disabled:bg-violet-400",
  secondary:
    "border border-slate-300 bg-white text-slate-900 hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800",
  danger: "bg-red-700 text-white hover:bg-red-800 disabled:bg-red-400",
  ghost: "text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800",
};

export const buttonClass = (variant: Variant = "primary") =>
  `inline-flex items-center justify-center gap-2 rounded-lg px-3 py-2 text-sm font-medium disabled:cursor-not-allowed ${VARIANTS[variant]}`;

export function Button({
  variant = "primary",
  busy,
  className = "",
  children,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; busy?: boolean }) {
  return (
    <button type="button" {...rest} disabled={rest.disabled || busy} className={`${buttonClass(variant)} ${className}`}>
      {busy && <Loader2 className="size-4 animate-spin" aria-hidden />}
      {children}
    </button>
  );
}

export type Tone = "green" | "blue" | "yellow" | "orange" | "red" | "purple" | "gray";
const TONES: Record<Tone, string> = {
  green: "bg-green-100 text-green-800 dark:bg-green-900/50 dark:text-green-200",
  blue: "bg-blue-100 text-blue-800 dark:bg-blue-900/50 dark:text-blue-200",
  yellow: "bg-yellow-100 text-yellow-900 dark:bg-yellow-900/50 dark:text-yellow-100",
  orange: "bg-orange-100 text-orange-900 dark:bg-orange-900/50 dark:text-orange-100",
  red: "bg-red-100 text-red-800 dark:bg-red-900/50 dark:text-red-200",
  purple: "bg-purple-100 text-purple-800 dark:bg-purple-900/50 dark:text-purple-200",
  gray: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200",
};

export function Badge({ tone, title, children }: { tone: Tone; title?: string; children: ReactNode }) {
  return (
    <span
      title={title}
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}

export function Card({ children, className = "" }: { children: ReactNode; className?: string }) {
  return (
    <section
      className={`rounded-xl border border-slate-200 bg-white p-4 dark:border-slate-800 dark:bg-slate-900 ${className}`}
    >
      {children}
    </section>
  );
}

export function Spinner({ label }: { label: string }) {
  return (
    <div role="status" className="flex items-center justify-center gap-2 p-8 text-slate-600 dark:text-slate-300">
      <Loader2 className="size-5 animate-spin" aria-hidden />
      <span>{label}</span>
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-xl border border-dashed border-slate-300 p-8 text-center dark:border-slate-700">
      <p className="font-medium">{title}</p>
      {children && <div className="mt-3 text-sm text-slate-600 dark:text-slate-300">{children}</div>}
    </div>
  );
}

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-2xl font-semibold">{title}</h1>
      {children && <div className="flex flex-wrap gap-2">{children}</div>}
    </div>
  );
}

/** A card's head: its title and a line under it on the left, its badges on the right (wrapping below on phones). */
export function CardHeader({ title, meta, badges }: { title: ReactNode; meta: ReactNode; badges: ReactNode }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-2">
      <div className="min-w-0">
        <h2 className="font-semibold">{title}</h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">{meta}</p>
      </div>
      <div className="flex flex-wrap items-center gap-1">{badges}</div>
    </div>
  );
}

/** Label chips of an issue or pull request; nothing when there are none. */
export function LabelList({ labels }: { labels: string[] }) {
  if (!labels.length) return null;
  return (
    <ul className="mt-2 flex flex-wrap gap-1" aria-label="Labels">
      {labels.map((l) => (
        <li key={l}>
          <Badge tone="gray">{l}</Badge>
        </li>
      ))}
    </ul>
  );
}
