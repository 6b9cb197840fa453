import { useEffect, useRef } from "react";
import type { z } from "zod";
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { openLiveSource } from "../../api/live-source";
import { runQuery, type Run } from "../../api/runs.queries";
import {
  isTerminalRunStatus,
  RUN_CANCELLED,
  RUN_EVENT_TYPES,
  RunEvent,
  RunView,
  type StepCost,
  type StepEvent,
} from "@fixloop/contract";
import { applyTests, EMPTY_TESTS_LOG, runTestsLogQuery } from "./tests-log";
import { applyCandidate, runCandidatesQuery } from "../candidates/candidates.queries";
import { applyAgent, runAgentQuery } from "../agent/agent.queries";

export const isTerminal = (r: Run | undefined) => !!r && isTerminalRunStatus(r.status);

/**
 * Why a cancelled run was stopped when no one pressed Cancel (its issue deleted or transferred on
 * GitHub, say); null for a plain Cancel, or a run that was not cancelled.
 */
export function stoppedReason(r: Pick<Run, "status" | "error"> | undefined): string | null {
  if (r?.status !== "cancelled" || !r.error || r.error.code === RUN_CANCELLED.code) return null;
  return r.error.message;
}

/**
 * Folds one `step` event into the cached run (the run always lists all five steps). A `pending`
 * event is a queued run's note on why it waits: the run stays queued.
 */
export function applyStep(run: Run, e: Omit<StepEvent, "type">): Run {
  const waiting = e.status === "pending";
  const steps = run.steps.map((s) =>
    s.id === e.step
      ? {
          ...s,
          status: e.status,
          detail: e.detail,
          startedAt: waiting ? s.startedAt : (s.startedAt ?? e.at),
          finishedAt: e.status === "running" || waiting ? null : e.at,
          cost: e.cost ?? s.cost,
        }
      : s,
  );
  const total = (f: (c: StepCost) => number) => steps.reduce((sum, s) => sum + f(s.cost), 0);
  const costs = {
    costUsd: total((c) => c.usd),
    tokensIn: total((c) => c.tokensIn),
    tokensOut: total((c) => c.tokensOut),
  };
  if (waiting) return { ...run, steps };
  return { ...run, status: run.status === "queued" ? "running" : run.status, currentStep: e.step, steps, ...costs };
}

/**
 * One SSE message of a run's stream checked against the wire schema: the event, or null (with a
 * console warning) when its data is not JSON, not a run event, or not of the type it was sent as.
 */
export function parseRunEvent(name: string, data: unknown): RunEvent | null {
  const parsed = parseJson(name, data, RunEvent);
  if (!parsed || parsed.type === name) return parsed;
  console.warn(`Ignored a run event "${name}" that carries a "${parsed.type}" event`);
  return null;
}

/** The stream's first message: the whole run; null (with a console warning) when malformed. */
export const parseRunSnapshot = (data: unknown): RunView | null => parseJson("snapshot", data, RunView);

function parseJson<T>(name: string, data: unknown, schema: z.ZodType<T>): T | null {
  let json: unknown;
  try {
    json = JSON.parse(String(data));
  } catch {
    console.warn(`Ignored a run event "${name}" whose data is not JSON`);
    return null;
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  console.warn(`Ignored a malformed run event "${name}"`, parsed.error.issues);
  return null;
}

/**
 * Writes what the stream said into the cached run. A read of the run sent before this event (the
 * one Cancel starts, say) may answer after it with an older run; it is cancelled first, so it can
 * never put "running" back after "cancelled" (the stream is closed by then: the page would wait on
 * nothing). Cancelling reverts to the last written run at once, then this event applies.
 */
function write(qc: QueryClient, runId: string, fn: (r: Run | undefined) => Run | undefined) {
  const key = runQuery(runId).queryKey;
  void qc.cancelQueries({ queryKey: key, exact: true });
  qc.setQueryData(key, fn);
}

/** The stream's snapshot: the whole run as Postgres has it when the stream opened. */
export function applySnapshot(qc: QueryClient, runId: string, snapshot: Run): void {
  write(qc, runId, () => snapshot);
}

/**
 * One run event into the cache: steps and the end into the run, test output and candidates into
 * their own queries. Events before the snapshot (there are none: it is always first) are dropped.
 */
export function applyRunEvent(qc: QueryClient, runId: string, e: RunEvent, id: string | undefined): void {
  const update = (fn: (r: Run) => Run) => {
    if (qc.getQueryData(runQuery(runId).queryKey)) write(qc, runId, (old) => (old ? fn(old) : old));
  };
  const finish = (patch: Partial<Run>) => update((r) => ({ ...r, ...patch, finishedAt: new Date().toISOString() }));
  switch (e.type) {
    case "step":
      return update((r) => applyStep(r, e));
    case "tests":
      return void qc.setQueryData(runTestsLogQuery(runId).queryKey, (log) => applyTests(log ?? EMPTY_TESTS_LOG, e, id));
    case "candidate":
      return void qc.setQueryData(runCandidatesQuery(runId).queryKey, (rows) => applyCandidate(rows ?? {}, e));
    case "agent":
      return void qc.setQueryData(runAgentQuery(runId).queryKey, (live) =>
        applyAgent(live ?? { actions: {}, ended: {} }, e),
      );
    case "completed":
      return finish({ status: "completed", solutionId: e.solutionId });
    case "failed":
      return finish({ status: "failed", error: e.error });
    case "cancelled":
      return finish({ status: "cancelled", ...(e.error ? { error: e.error } : {}) });
  }
}

/**
 * The run, kept current by its SSE stream: a snapshot, then step/tests/terminal events. EventSource
 * reconnects on its own and resumes from Last-Event-ID, so a dropped connection loses nothing; a
 * refused one (too many live streams) is opened again by openLiveSource, from a new snapshot.
 */
export function useLiveRun(runId: string | undefined, onEnd?: (run: Run) => void) {
  const qc = useQueryClient();
  const run = useQuery({ ...runQuery(runId ?? ""), enabled: !!runId });
  const terminal = isTerminal(run.data);
  const onEndRef = useRef(onEnd);
  onEndRef.current = onEnd;
  const endedFor = useRef<string | null>(null);

  // One place reports the end, whether it arrived as an event or the run had already ended when first read.
  useEffect(() => {
    if (runId && run.data && terminal && endedFor.current !== runId) {
      endedFor.current = runId;
      onEndRef.current?.(run.data);
    }
    // A resumed run ends a second time.
    if (run.data && !terminal) endedFor.current = null;
  }, [runId, run.data, terminal]);

  useEffect(() => {
    if (!runId || terminal) return;
    return openLiveSource(`/api/runs/${encodeURIComponent(runId)}/events`, (es) => {
      es.addEventListener("snapshot", (m) => {
        const snapshot = parseRunSnapshot(m.data);
        if (!snapshot) return;
        applySnapshot(qc, runId, snapshot);
        if (isTerminal(snapshot)) es.close();
      });
      for (const name of RUN_EVENT_TYPES) {
        es.addEventListener(name, (m) => {
          const e = parseRunEvent(name, m.data);
          if (!e) return;
          if (e.type === "completed" || e.type === "failed" || e.type === "cancelled") es.close();
          applyRunEvent(qc, runId, e, m.lastEventId || undefined);
        });
      }
    });
  }, [runId, terminal, qc]);
  return run;
}
