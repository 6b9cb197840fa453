import { useLayoutEffect, useRef } from "react";
import { useQuery } from "@tanstack/react-query";
import { Loader2 } from "lucide-react";
import { testsVerdict, type LiveTestCounts, type SolutionTests, type TestsPhase } from "@fixloop/contract";
import { runStoredTestsLogQuery, runTestsLogQuery, type PhaseLog } from "./tests-log";

export const PHASE_LABEL: Record<TestsPhase, string> = {
  base: "Base tree",
  patched: "Patched tree",
  repair: "Repair attempt",
};
const STATUSES: readonly unknown[] = ["passed", "failed", "error", "skipped"] satisfies SolutionTests["status"][];
/** The validating step's detail carries the evidence the worker checked against the contract when it announced it. */
export const isEvidence = (v: unknown): v is SolutionTests =>
  typeof v === "object" && v !== null && STATUSES.includes((v as { status?: unknown }).status);

/** Lines of each phase kept in the DOM; the cache keeps more (see tests-log.ts). */
const DOM_LINES = 400;

export function CountsLine({ counts }: { counts: LiveTestCounts }) {
  return (
    <span className="tabular-nums" data-testid="tests-counts">
      <span className="text-green-800 dark:text-green-400">{counts.passed} passed</span> ·{" "}
      <span className={counts.failed > 0 ? "text-red-800 dark:text-red-400" : ""}>{counts.failed} failed</span> ·{" "}
      <span className={counts.errored > 0 ? "text-orange-800 dark:text-orange-400" : ""}>{counts.errored} errored</span>
    </span>
  );
}

/**
 * The run's live test output (under Generating while it checks the reproduction test on the base
 * tree, then under Validating), phase by phase, with counts as they update. It follows new output
 * unless the reader scrolled up.
 */
export function TestLog({
  runId,
  running,
  ended = false,
  evidence,
}: {
  runId: string;
  running: boolean;
  /** The run ended: with no live output (its stream expired, or the page never watched it), the stored log is read. */
  ended?: boolean;
  evidence: unknown;
}) {
  const { data: live } = useQuery(runTestsLogQuery(runId));
  const stored = useQuery({ ...runStoredTestsLogQuery(runId), enabled: ended && live.phases.length === 0 });
  const log = live.phases.length === 0 && stored.data ? { phases: stored.data } : live;
  const box = useRef<HTMLDivElement>(null);
  const follow = useRef(true);
  useLayoutEffect(() => {
    const el = box.current;
    if (el && follow.current) el.scrollTop = el.scrollHeight;
  }, [log]);

  const verdict = isEvidence(evidence) ? testsVerdict(evidence) : null;
  const reason = verdict && `Tests: ${verdict.text}`;
  if (log.phases.length === 0) {
    if (reason)
      return (
        <p
          className="px-3 pb-3 text-sm text-slate-700 dark:text-slate-300"
          data-testid="tests-not-run"
          data-kind={verdict?.kind}
        >
          {reason}
        </p>
      );
    return running ? (
      <p className="px-3 pb-3 text-sm text-slate-600 dark:text-slate-400">Waiting for test output...</p>
    ) : null;
  }
  return (
    <div className="space-y-2 border-t border-slate-100 p-3 dark:border-slate-800">
      <div
        ref={box}
        onScroll={(e) => {
          const el = e.currentTarget;
          follow.current = el.scrollHeight - el.scrollTop - el.clientHeight < 16;
        }}
        role="log"
        aria-label="Test output"
        tabIndex={0}
        data-testid="test-log"
        className="max-h-80 overflow-auto rounded-lg border border-slate-200 bg-slate-50 px-3 pb-3 font-mono text-xs leading-5 text-slate-900 dark:border-slate-700 dark:bg-slate-950 dark:text-slate-100"
      >
        {log.phases.map((p) => (
          <PhaseBlock key={p.phase} log={p} />
        ))}
      </div>
      {reason && (
        <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="step-verdict" data-kind={verdict?.kind}>
          {reason}
        </p>
      )}
    </div>
  );
}

function PhaseBlock({ log }: { log: PhaseLog }) {
  const lines = log.output.replace(/\n$/, "").split("\n");
  const hidden = Math.max(0, lines.length - DOM_LINES);
  return (
    <section data-phase={log.phase} data-done={log.done} className="mb-2 last:mb-0">
      <h3 className="sticky top-0 -mx-3 flex flex-wrap items-center gap-x-3 bg-slate-200 px-3 py-1 font-sans text-xs font-semibold dark:bg-slate-800">
        {!log.done && <Loader2 className="size-3 animate-spin" aria-hidden />}
        <span>{PHASE_LABEL[log.phase]}</span>
        <span className="font-normal">
          <CountsLine counts={log.counts} />
        </span>
      </h3>
      {(hidden > 0 || log.dropped > 0) && (
        <p className="text-slate-600 dark:text-slate-400">... earlier output not shown</p>
      )}
      <pre className="whitespace-pre-wrap break-all">{lines.slice(hidden).join("\n")}</pre>
    </section>
  );
}
