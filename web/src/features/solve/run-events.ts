import { useEffect, useRef } from "react";
import type { z } from "zod";
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { runQuery, type Run } from "../../api/runs.queries";
import {
  isTerminalRunStatus,
  RUN_EVENT_TYPES,
  RunEvent,
  RunView,
  type StepCost,
  type StepEvent,
} from "@fixloop/contract";
import { applyTests, EMPTY_TESTS_LOG, runTestsLogQuery } from "./tests-log";
import { applyCandidate, runCandidatesQuery } from "../candidates/candidates.queries";

export const isTerminal = (r: Run | undefined) => !!r && isTerminalRunStatus(r.status);

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

function update(qc: QueryClient, runId: string, fn: (r: Run) => Run) {
  qc.setQueryData(runQuery(runId).queryKey, (old) => (old ? fn(old) : old));
}

/**
 * The run, kept current by its SSE stream: a snapshot, then step/tests/terminal events. EventSource
 * reconnects on its own and resumes from Last-Event-ID, so a dropped connection loses nothing.
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
    const es = new EventSource(`/api/runs/${encodeURIComponent(runId)}/events`);
    const finish = (patch: Partial<Run>) => {
      es.close();
      update(qc, runId, (r) => ({ ...r, ...patch, finishedAt: new Date().toISOString() }));
    };
    es.addEventListener("snapshot", (m) => {
      const snapshot = parseRunSnapshot(m.data);
      if (!snapshot) return;
      qc.setQueryData(runQuery(runId).queryKey, snapshot);
      if (isTerminal(snapshot)) es.close();
    });
    const apply = (e: RunEvent, id: string | undefined) => {
      switch (e.type) {
        case "step":
          return update(qc, runId, (r) => applyStep(r, e));
        case "tests":
          return qc.setQueryData(runTestsLogQuery(runId).queryKey, (log) => applyTests(log ?? EMPTY_TESTS_LOG, e, id));
        case "candidate":
          return qc.setQueryData(runCandidatesQuery(runId).queryKey, (rows) => applyCandidate(rows ?? {}, e));
        case "completed":
          return finish({ status: "completed", solutionId: e.solutionId });
        case "failed":
          return finish({ status: "failed", error: e.error });
        case "cancelled":
          return finish({ status: "cancelled" });
      }
    };
    for (const name of RUN_EVENT_TYPES) {
      es.addEventListener(name, (m) => {
        const e = parseRunEvent(name, m.data);
        if (e) apply(e, m.lastEventId || undefined);
      });
    }
    return () => es.close();
  }, [runId, terminal, qc]);
  return run;
}
