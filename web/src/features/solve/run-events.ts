import { useEffect } from "react";
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { runQuery, type Run } from "../../api/runs.queries";
import type { StepDetail, StepId, StepStatus } from "@fixloop/worker/contract/pipeline";


const TERMINAL = new Set<Run["status"]>(["completed", "failed", "cancelled"]);
export const isTerminal = (r: Run | undefined) => !!r && TERMINAL.has(r.status);

interface StepEvent {
  step: StepId;
  status: StepStatus;
  detail: StepDetail;
  at: string;
}

/** Folds one `step` event into the cached run (the run always lists all five steps). */
export function applyStep(run: Run, e: StepEvent): Run {
  const steps = run.steps.map((s) =>
    s.id === e.step ? { ...s, status: e.status, detail: e.detail, startedAt: s.startedAt ?? e.at, finishedAt: e.status === "running" ? null : e.at } : s,
  );
  return { ...run, status: run.status === "queued" ? "running" : run.status, currentStep: e.step, steps };
}

function update(qc: QueryClient, runId: string, fn: (r: Run) => Run) {
  qc.setQueryData(runQuery(runId).queryKey, (old) => (old ? fn(old) : old));
}

/**
 * The run, kept current by its SSE stream: a snapshot, then step/terminal events. EventSource
 * reconnects on its own and resumes from Last-Event-ID, so a dropped connection loses nothing.
 */
export function useLiveRun(runId: string | undefined, onEnd?: (run: Run) => void) {
  const qc = useQueryClient();
  const run = useQuery({ ...runQuery(runId ?? ""), enabled: !!runId });
  const terminal = isTerminal(run.data);
  useEffect(() => {
    if (!runId || terminal) return;
    const es = new EventSource(`/api/runs/${encodeURIComponent(runId)}/events`);
    const parse = (m: MessageEvent) => JSON.parse(String(m.data)) as Record<string, unknown>;
    const end = () => {
      es.close();
      const r = qc.getQueryData(runQuery(runId).queryKey);
      if (r) onEnd?.(r);
    };
    es.addEventListener("snapshot", (m) => {
      const snapshot = parse(m) as unknown as Run;
      qc.setQueryData(runQuery(runId).queryKey, snapshot);
      if (isTerminal(snapshot)) es.close();
    });
    es.addEventListener("step", (m) => update(qc, runId, (r) => applyStep(r, parse(m) as unknown as StepEvent)));
    es.addEventListener("completed", (m) => {
      const { solutionId } = parse(m) as { solutionId: string };
      update(qc, runId, (r) => ({ ...r, status: "completed", solutionId, finishedAt: new Date().toISOString() }));
      end();
    });
    es.addEventListener("failed", (m) => {
      const { error } = parse(m) as { error: Run["error"] };
      update(qc, runId, (r) => ({ ...r, status: "failed", error, finishedAt: new Date().toISOString() }));
      end();
    });
    es.addEventListener("cancelled", () => {
      update(qc, runId, (r) => ({ ...r, status: "cancelled", finishedAt: new Date().toISOString() }));
      end();
    });
    return () => es.close();
    // onEnd is read at event time; re-subscribing when it changes would replay the stream.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runId, terminal, qc]);
  return run;
}
