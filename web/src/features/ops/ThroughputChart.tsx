/**
 * Completed (violet) and failed (red) jobs per minute as stacked bars, oldest minute on the left.
 * Plain SVG that scales to its container's width.
 */
export function ThroughputChart({
  completed,
  failed,
  label,
}: {
  completed: number[];
  failed: number[];
  label: string;
}) {
  const n = completed.length;
  const totals = completed.map((c, i) => c + (failed[i] ?? 0));
  const max = Math.max(1, ...totals);
  const done = completed.reduce((a, b) => a + b, 0);
  const lost = failed.reduce((a, b) => a + b, 0);
  const H = 40;
  const summary = `${label}: ${done} completed and ${lost} failed in the last ${n} minutes, at most ${max} in one minute`;
  return (
    <figure className="mt-3">
      <figcaption className="mb-1 flex flex-wrap items-center gap-x-3 text-xs text-slate-600 dark:text-slate-400">
        <span className="flex items-center gap-1">
          <span className="size-2 rounded-sm bg-violet-500" aria-hidden /> {done.toLocaleString("en")} done
        </span>
        <span className={`flex items-center gap-1 ${lost ? "text-red-700 dark:text-red-400" : ""}`}>
          <span className="size-2 rounded-sm bg-red-500" aria-hidden /> {lost.toLocaleString("en")} failed
        </span>
        {done + lost > 0 && <span className="ml-auto">peak {max}/min</span>}
      </figcaption>
      <div className="relative">
        <svg
          viewBox={`0 0 ${n} ${H}`}
          preserveAspectRatio="none"
          className="block h-12 w-full rounded bg-slate-50 dark:bg-slate-800/60"
          role="img"
          aria-label={summary}
        >
          {totals.map((t, i) => {
            const hc = ((completed[i] ?? 0) / max) * H;
            const hf = ((failed[i] ?? 0) / max) * H;
            return t ? (
              <g key={i}>
                <rect x={i + 0.1} width={0.8} y={H - hc} height={hc} className="fill-violet-500" />
                <rect x={i + 0.1} width={0.8} y={H - hc - hf} height={hf} className="fill-red-500" />
              </g>
            ) : null;
          })}
        </svg>
        {done + lost === 0 && (
          <p className="absolute inset-0 flex items-center justify-center text-xs text-slate-500 dark:text-slate-400">
            No job finished in the last hour
          </p>
        )}
      </div>
      <div className="mt-0.5 flex justify-between text-[11px] text-slate-500 dark:text-slate-400" aria-hidden>
        <span>−{n} min</span>
        <span>now</span>
      </div>
    </figure>
  );
}
