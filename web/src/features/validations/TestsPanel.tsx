import type { SolutionTests, TestCounts } from "@fixloop/contract";
import { Card } from "../../ui/ui";
import { VerdictText } from "./tests-status";
import { TestsAttempts } from "./TestsAttempts";
import { TestsRerunLive } from "./TestsRerunLive";

const BACKEND: Record<SolutionTests["backend"], string> = {
  bwrap: "bubblewrap sandbox",
  docker: "Docker sandbox",
  off: "off",
};
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function CountsCell({ counts }: { counts: TestCounts | null }) {
  if (!counts) return <td className="py-1 text-slate-600 dark:text-slate-400">not run</td>;
  return (
    <td className="py-1 tabular-nums">
      <span className="text-green-700 dark:text-green-400">{counts.passed} passed</span>, {counts.failed} failed,{" "}
      {counts.errored} errored
      <span className="block text-xs text-slate-600 dark:text-slate-400">in {seconds(counts.durationMs)}</span>
    </td>
  );
}

function Names({ title, names, tone, note }: { title: string; names: string[]; tone: "green" | "red"; note?: string }) {
  if (names.length === 0) return null;
  const color = tone === "green" ? "text-green-800 dark:text-green-300" : "text-red-800 dark:text-red-300";
  return (
    <div data-testid={`tests-${title.toLowerCase().replace(/\s+/g, "-")}`}>
      <h3 className="text-sm font-medium">
        {title}
        {note ? <span className="font-normal text-slate-600 dark:text-slate-400"> ({note})</span> : null}
      </h3>
      <ul className={`mt-1 space-y-0.5 font-mono text-xs ${color}`}>
        {names.map((n) => (
          <li key={n} className="break-words">
            {tone === "green" ? "✓" : "✗"} {n}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The evidence from running the repository's tests before and after the patch. */
export function TestsPanel({ tests, solutionId }: { tests: SolutionTests | null; solutionId: string }) {
  if (!tests) {
    return (
      <Card>
        <h2 className="font-semibold">Tests</h2>
        <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
          No test results for this solution: it was made before tests were run.
        </p>
      </Card>
    );
  }
  return (
    <Card>
      <section
        aria-labelledby="tests-title"
        data-testid="tests-panel"
        data-status={tests.status}
        data-stale={tests.stale ? "true" : undefined}
        className="space-y-3"
      >
        <h2 id="tests-title" className="font-semibold">
          Tests
        </h2>
        <VerdictText tests={tests} />
        {tests.reason && (tests.status === "passed" || tests.status === "failed") && (
          <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="tests-reason">
            {tests.reason}
          </p>
        )}
        {tests.stale && (
          <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="tests-stale">
            The solution was edited by hand after its tests ran; what follows is about the generated change.
          </p>
        )}
        {tests.rerunPending && <TestsRerunLive solutionId={solutionId} revision={tests.rerunPending.revision} />}
        {tests.rerun && (
          <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="tests-rerun-done">
            These results are from the tests run again on the edited code (revision {tests.rerun.revision}).
          </p>
        )}
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-slate-600 dark:text-slate-400">Command</dt>
          {/* With the sandbox off the worker never looks for one: "none found" would be untrue. */}
          <dd className="break-all font-mono text-xs leading-5" data-testid="tests-command">
            {tests.command ?? (tests.backend === "off" ? "not looked for (sandbox off)" : "none found")}
          </dd>
          <dt className="text-slate-600 dark:text-slate-400">Sandbox</dt>
          <dd>{BACKEND[tests.backend]}</dd>
        </dl>
        {(tests.base || tests.patched) && (
          <table className="w-full text-left text-sm">
            <tbody>
              <tr>
                <th scope="row" className="w-28 py-1 pr-2 font-medium">
                  Base tree
                </th>
                <CountsCell counts={tests.base} />
              </tr>
              <tr>
                <th scope="row" className="py-1 pr-2 font-medium">
                  Patched tree
                </th>
                <CountsCell counts={tests.patched} />
              </tr>
            </tbody>
          </table>
        )}
        <Names title="Fixed" names={tests.fixed} tone="green" />
        <Names
          title="New tests passing"
          note="no proof: they do not fail before the change"
          names={tests.added ?? []}
          tone="green"
        />
        <Names title="Regressions" names={tests.regressions} tone="red" />
        <Names title="Pre-existing failures" names={tests.preexisting ?? []} tone="red" />
        {tests.attempts.length > 1 && <TestsAttempts attempts={tests.attempts} kept={tests.kept} />}
        {tests.logTail && (
          <details className="text-sm">
            <summary className="cursor-pointer font-medium">Log tail</summary>
            <pre
              tabIndex={0}
              className="mt-2 max-h-80 overflow-auto whitespace-pre-wrap break-all rounded-lg border border-slate-200 bg-slate-50 p-3 font-mono text-xs dark:border-slate-700 dark:bg-slate-950"
            >
              {tests.logTail}
            </pre>
          </details>
        )}
      </section>
    </Card>
  );
}
