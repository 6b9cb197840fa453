import type { StepRerank, StepSymbol } from "@fixloop/contract";

/** The dependencies step's top functions and classes, and the model rerank beside the ranking it started from. */
export function LocalizedSymbols({ symbols, rerank }: { symbols: unknown; rerank: unknown }) {
  const list = Array.isArray(symbols) ? (symbols as StepSymbol[]) : [];
  const r = rerank && typeof rerank === "object" ? (rerank as StepRerank) : undefined;
  if (list.length === 0 && !r) return null;
  return (
    <div className="space-y-2" data-testid="step-symbols">
      {list.length > 0 && (
        <>
          <p className="text-xs font-medium text-slate-600 dark:text-slate-400">Top functions and classes</p>
          <ul className="space-y-1 text-xs">
            {list.map((s) => (
              <li key={`${s.path}:${s.name}:${s.startLine}`} className="min-w-0">
                <span className="font-mono break-all">
                  {s.name}
                  <span className="text-slate-500 dark:text-slate-400">
                    {" "}
                    {s.path.split("/").pop()}:{s.startLine}-{s.endLine}
                  </span>
                </span>
                {s.reasons.length > 0 && (
                  <span className="block text-slate-600 dark:text-slate-400">{s.reasons.join("; ")}</span>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {r && r.status === "applied" && (
        <div className="grid grid-cols-1 gap-2 text-xs sm:grid-cols-2" data-testid="step-rerank">
          <div className="min-w-0">
            <p className="font-medium text-slate-600 dark:text-slate-400">Model picked</p>
            <ol className="list-decimal pl-4">
              {r.picks.map((p) => (
                <li key={p.path}>
                  <span className="font-mono break-all">{p.path}</span>
                  {p.reason && <span className="block text-slate-600 dark:text-slate-400">{p.reason}</span>}
                </li>
              ))}
            </ol>
          </div>
          <div className="min-w-0">
            <p className="font-medium text-slate-600 dark:text-slate-400">Ranking without a model</p>
            <ol className="list-decimal pl-4 font-mono">
              {r.before.slice(0, 5).map((p) => (
                <li key={p} className="break-all">
                  {p}
                </li>
              ))}
            </ol>
          </div>
        </div>
      )}
    </div>
  );
}
