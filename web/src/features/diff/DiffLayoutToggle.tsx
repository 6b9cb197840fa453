import { Columns2, Rows3 } from "lucide-react";
import { setDiffLayout, useDiffLayout, type DiffLayout } from "./diff-layout";

const OPTIONS: { value: DiffLayout; label: string; Icon: typeof Columns2 }[] = [
  { value: "unified", label: "Unified", Icon: Rows3 },
  { value: "split", label: "Split", Icon: Columns2 },
];

/** Unified/split switch for wide screens (narrow screens always show a unified diff); the choice is remembered. */
export function DiffLayoutToggle() {
  const { preferred, narrow } = useDiffLayout();
  if (narrow) return null;
  return (
    <div
      role="group"
      aria-label="Diff layout"
      className="inline-flex overflow-hidden rounded-lg border border-slate-300 text-xs dark:border-slate-700"
    >
      {OPTIONS.map(({ value, label, Icon }) => (
        <button
          key={value}
          type="button"
          aria-pressed={preferred === value}
          onClick={() => setDiffLayout(value)}
          className={`flex items-center gap-1 px-2 py-1 ${preferred === value ? "bg-violet-100 font-medium text-violet-900 dark:bg-violet-900/50 dark:text-violet-100" : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"}`}
        >
          <Icon className="size-3.5" aria-hidden /> {label}
        </button>
      ))}
    </div>
  );
}
