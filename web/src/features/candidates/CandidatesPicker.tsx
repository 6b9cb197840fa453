import { CANDIDATES_MAX } from "@fixloop/contract";

/** How many candidate patches this run generates (the Settings default until changed). */
export function CandidatesPicker({
  value,
  onChange,
  disabled,
}: {
  value: number;
  onChange: (n: number) => void;
  disabled?: boolean;
}) {
  return (
    <div className="sm:w-48">
      <label htmlFor="candidates" className="block text-sm font-medium">
        Candidates
      </label>
      <select
        id="candidates"
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(Number(e.target.value))}
        className="mt-1 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 dark:border-slate-600 dark:bg-slate-900"
      >
        {Array.from({ length: CANDIDATES_MAX }, (_, i) => i + 1).map((n) => (
          <option key={n} value={n}>
            {n === 1 ? "1 (single attempt)" : `${n} candidates`}
          </option>
        ))}
      </select>
    </div>
  );
}
