import type { RunMode } from "@fixloop/contract";

/** How step 4 writes the fix: one request, or an agent that investigates first (the Settings default until changed). */
export function RunModePicker({
  value,
  onChange,
  disabled,
}: {
  value: RunMode;
  onChange: (m: RunMode) => void;
  disabled?: boolean;
}) {
  return (
    <div className="sm:w-48">
      <label htmlFor="run-mode" className="block text-sm font-medium">
        Solve mode
      </label>
      <select
        id="run-mode"
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value === "investigate" ? "investigate" : "single")}
        className="mt-1 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 dark:border-slate-600 dark:bg-slate-900"
      >
        <option value="single">Single pass</option>
        <option value="investigate">Investigate</option>
      </select>
    </div>
  );
}
