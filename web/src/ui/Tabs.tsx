import type { KeyboardEvent } from "react";

export interface TabDef<T extends string> {
  id: T;
  label: string;
  count?: number;
}

/** WAI-ARIA tabs: arrow keys move between tabs; the panel is rendered by the caller with id `${idBase}-panel`. */
export function Tabs<T extends string>({
  tabs,
  value,
  onChange,
  idBase,
  label,
}: {
  tabs: TabDef<T>[];
  value: T;
  onChange: (v: T) => void;
  idBase: string;
  label: string;
}) {
  const onKey = (e: KeyboardEvent) => {
    const i = tabs.findIndex((t) => t.id === value);
    const d = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
    if (!d) return;
    const next = tabs[(i + d + tabs.length) % tabs.length];
    if (next) {
      onChange(next.id);
      document.getElementById(`${idBase}-tab-${next.id}`)?.focus();
    }
  };
  return (
    <div
      role="tablist"
      aria-label={label}
      onKeyDown={onKey}
      className="mb-4 flex gap-1 overflow-x-auto overflow-y-hidden shadow-[inset_0_-1px_0] shadow-slate-200 dark:shadow-slate-800"
    >
      {tabs.map((t) => (
        <button
          key={t.id}
          id={`${idBase}-tab-${t.id}`}
          type="button"
          role="tab"
          aria-selected={t.id === value}
          aria-controls={`${idBase}-panel`}
          tabIndex={t.id === value ? 0 : -1}
          onClick={() => onChange(t.id)}
          className={`border-b-2 px-3 py-2 text-sm whitespace-nowrap ${t.id === value ? "border-violet-700 font-medium text-violet-800 dark:border-violet-300 dark:text-violet-200" : "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-slate-100"}`}
        >
          {t.label}
          {t.count !== undefined && (
            <span className="ml-1.5 rounded-full bg-slate-100 px-1.5 text-xs dark:bg-slate-800">{t.count}</span>
          )}
        </button>
      ))}
    </div>
  );
}
