import { queryOptions } from "@tanstack/react-query";
import { api } from "../../api/client";
import { unwrap } from "../../api/errors";
import type { LiveTestCounts, TestsEvent, TestsPhase } from "@fixloop/contract";

/** Characters of output kept per phase; older output is dropped from the front and counted. */
export const LOG_KEEP_CHARS = 64 * 1024;

export interface PhaseLog {
  phase: TestsPhase;
  output: string;
  /** Characters dropped from the front to stay within LOG_KEEP_CHARS. */
  dropped: number;
  counts: LiveTestCounts;
  done: boolean;
}

/** A run's live test output, one entry per phase in the order the phases started. */
export interface TestsLog {
  phases: PhaseLog[];
  /** Stream id of the last event folded in: a replayed event is not appended twice. */
  lastId: string | null;
}

export const EMPTY_TESTS_LOG: TestsLog = { phases: [], lastId: null };

/**
 * The live test log of a run, filled only by its SSE `tests` events (see run-events.ts); a reload
 * replays the stream from its start, so the log comes back whole.
 */
export const runTestsLogQuery = (runId: string) =>
  queryOptions({
    queryKey: ["run-tests-log", runId],
    queryFn: () => EMPTY_TESTS_LOG,
    initialData: EMPTY_TESTS_LOG,
    staleTime: Infinity,
  });

/** Redis stream ids (`ms-seq`) in order. */
function after(id: string, last: string | null): boolean {
  if (!last) return true;
  const [a = 0, b = 0] = id.split("-").map(Number);
  const [c = 0, d = 0] = last.split("-").map(Number);
  return a > c || (a === c && b > d);
}

/** Folds one `tests` event into the log; `id` is its SSE id, when it has one. */
export function applyTests(log: TestsLog, e: Omit<TestsEvent, "type">, id?: string): TestsLog {
  if (id && !after(id, log.lastId)) return log;
  const found = log.phases.find((p) => p.phase === e.phase);
  // Output for a phase that had ended is a new run of it (the job was retried): start it afresh.
  const current =
    found && !found.done ? found : { phase: e.phase, output: "", dropped: 0, counts: e.counts, done: false };
  const joined = current.output + e.output;
  const cut = Math.max(0, joined.length - LOG_KEEP_CHARS);
  const next: PhaseLog = {
    phase: e.phase,
    output: joined.slice(cut),
    dropped: current.dropped + cut,
    counts: e.counts,
    done: e.done,
  };
  const phases = log.phases.some((p) => p.phase === e.phase)
    ? log.phases.map((p) => (p.phase === e.phase ? next : p))
    : [...log.phases, next];
  return { phases, lastId: id ?? log.lastId };
}

/**
 * The run's test log as the worker stored it (each phase's last 256 KB): a finished solve opened
 * after its live event stream expired (a day later) shows this instead of nothing.
 */
export const runStoredTestsLogQuery = (runId: string) =>
  queryOptions({
    queryKey: ["run-tests-log", runId, "stored"],
    queryFn: () => unwrap(api.runs[":id"]["tests-log"].$get({ param: { id: runId } })).then((b) => b.phases),
    staleTime: Infinity,
  });
