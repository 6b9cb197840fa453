import { useEffect } from "react";
import { useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { asRun, runQuery } from "../../api/runs.queries";
import type { Run, RunStep, StepDetail, StepId, StepStatus } from "../../api/types";

export const STEP_IDS: StepId[] = ["analyzing", "context", "dependencies", "generating", "validating"];
export const STEP_LABELS: Record<StepId, string> = {
  analyzing: "Analyzing Issue",
  context: "Gathering Context",
  dependencies: "Building Dependency Graph",
  generating: "Generating Solution",
  validating: "Validating & Finalizing",
};

const TERMINAL = new Set<Run["status"]>(["completed", "failed", "cancelled"]);
export const isTerminal = (r: Run | undefined) => !!r && TERMINAL.has(r.status);

interface StepEvent {
  step: StepId;
  status: StepStatus;
  detail: StepDetail;
  at: string;
}

/** Folds one `step` event into the cached run. */
export function applyStep(run: Run, e: StepEvent): Run {
  const existing = run.steps.find((s) => s.step === e.step);
  const base: RunStep = existing ?? { step: e.step, status: "pending", detail: null, startedAt: null, finishedAt: null };
  const next: RunStep = {
    ...base,
    status: e.status,
    detail: e.detail,
    startedAt: base.startedAt ?? e.at,
    finishedAt: e.status === "running" ? null : e.at,
  };
  const steps = existing ? run.steps.map((s) => (s.step === e.step ? next : s)) : [...run.steps, next];
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
      const body = parse(m) as { run: Run } | Run;
      qc.setQueryData(runQuery(runId).queryKey, asRun(body));
      if (isTerminal(asRun(body))) es.close();
    });
    es.addEventListener("step", (m) => update(qc, runId, (r) => applyStep(r, parse(m) as unknown as StepEvent)));
    es.addEventListener("completed", (m) => {
      const { solutionId } = parse(m) as { solutionId: string };
      update(qc, runId, (r) => ({ ...r, status: "completed", solutionId }));
      end();
    });
    es.addEventListener("failed", (m) => {
      const { error } = parse(m) as { error: Run["error"] };
      update(qc, runId, (r) => ({ ...r, status: "failed", error }));
      end();
    });
    es.addEventListener("cancelled", () => {
      update(qc, runId, (r) => ({ ...r, status: "cancelled" }));
      end();
    });
    return () => es.close();
    // onEnd is read at event time; re-subscribing when it changes would replay the stream.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [runId, terminal, qc]);
  return run;
}
