import type { SolutionTests } from "@fixloop/contract";
import { DiffViewer } from "../diff/DiffViewer";

type Attempt = SolutionTests["attempts"][number];

const countsText = (a: Attempt) =>
  a.patched ? `${a.patched.passed} passed, ${a.patched.failed} failed, ${a.patched.errored} errored` : "not run";

/** The first attempt and the repair round: each one's counts, the tests it broke, and the replaced attempt's diff. */
export function TestsAttempts({ attempts, kept }: { attempts: Attempt[]; kept: SolutionTests["kept"] }) {
  return (
    <div>
      <h3 className="text-sm font-medium">Attempts</h3>
      <ol className="mt-1 space-y-1 text-sm" data-testid="tests-attempts">
        {attempts.map((a, i) => (
          <li key={i} data-attempt={a.label} className="rounded-lg border border-slate-200 p-2 dark:border-slate-700">
            <span className="font-medium">{a.label === "first" ? "First attempt" : "Repair attempt"}</span>
            {kept === a.label && <span className="ml-1 text-xs text-slate-600 dark:text-slate-400">(kept)</span>}
            {": "}
            {countsText(a)}
            {a.fixed.length > 0 && (
              <span className="text-green-700 dark:text-green-400"> · {a.fixed.length} fixed</span>
            )}
            {a.regressions.length > 0 && (
              <span className="text-red-700 dark:text-red-400">
                {" "}
                · {a.regressions.length} {a.regressions.length === 1 ? "regression" : "regressions"}
              </span>
            )}
            {a.regressions.length > 0 && (
              <ul className="mt-1 font-mono text-xs text-red-800 dark:text-red-300" data-testid="attempt-regressions">
                {a.regressions.map((n) => (
                  <li key={n} className="break-words">
                    ✗ {n}
                  </li>
                ))}
              </ul>
            )}
            {a.files && a.files.length > 0 && (
              <details className="mt-2" data-testid="attempt-diff">
                <summary className="cursor-pointer font-medium">
                  {a.label === "first" ? "First attempt" : "Repair attempt"} diff (not kept)
                </summary>
                <div className="mt-2 space-y-2">
                  {a.files.map((f) => (
                    <DiffViewer
                      key={f.filename}
                      filename={f.filename}
                      action={f.action}
                      oldContent={f.originalContent}
                      newContent={f.content}
                      oldLabel="base tree"
                    />
                  ))}
                </div>
              </details>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}
