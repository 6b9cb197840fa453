import { issues, runInput, runs, type Db, type SolveRun, type steps } from "@fixloop/db";
import {
  actionsOf,
  standing,
  type ActionViews,
  queuedNote,
  STEPS,
  STEP_LABELS,
  stepCost,
  stepDetailOf,
  type ActiveRunCaps,
  type RunView,
} from "@fixloop/contract";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Why a queued run still waits, as its first step says it ("queued: 2 of your runs ahead"); null once it is not queued. */
export async function queuedNoteOf(db: Db, caps: ActiveRunCaps, run: SolveRun): Promise<string | null> {
  if (run.status !== "queued") return null;
  const place = await runs.queuePlace(db, run.id);
  return place ? queuedNote(place.ahead, caps[place.plan]) : null;
}

/** What may be done with the run's issue, as the issue's own view says it (the same table, the same reasons). */
export async function runActionsOf(db: Db, run: Pick<SolveRun, "issue_id">): Promise<ActionViews> {
  const issue = await issues.standingOf(db, run.issue_id);
  return actionsOf(standing(issue ?? {}, { pullRequestOpen: issue?.pull_request_open === true }));
}

/** What started the run, when it was not a person pressing Solve. */
function triggerOf(run: SolveRun): Pick<RunView, "trigger" | "triggerLabel" | "triggerSender"> {
  const input = runInput.read(run.input);
  if (input.trigger !== "label") return {};
  return {
    trigger: "label",
    ...(input.triggerLabel ? { triggerLabel: input.triggerLabel } : {}),
    ...(input.triggerSender ? { triggerSender: input.triggerSender } : {}),
  };
}

/**
 * The run as the API shows it: every step in order with status, detail and timings (a queued run's
 * first step: `note`), and what may be done with its issue (`runActionsOf`).
 */
export function presentRun(run: SolveRun, stored: steps.StepRow[], note: string | null, actions: ActionViews): RunView {
  const byStep = new Map(stored.map((s) => [s.step, s]));
  return {
    _id: run.id,
    id: run.id,
    kind: run.kind,
    ...triggerOf(run),
    issueId: run.issue_id,
    modelId: run.model_id,
    status: run.status,
    currentStep: run.current_step,
    solutionId: run.solution_id,
    error: run.error_code ? { code: run.error_code, message: run.error_message ?? "" } : null,
    tokensIn: run.tokens_in,
    tokensOut: run.tokens_out,
    costUsd: Number(run.cost_usd),
    attempts: run.attempts,
    createdAt: run.created_at.toISOString(),
    startedAt: iso(run.started_at),
    finishedAt: iso(run.finished_at),
    steps: STEPS.map((id, i) => {
      const s = byStep.get(id);
      const waiting = !s && i === 0 && note ? [note] : [];
      return {
        id,
        label: STEP_LABELS[id],
        status: s?.status ?? "pending",
        detail: stepDetailOf(s?.detail ?? { files: [], info: waiting, warnings: [] }),
        startedAt: iso(s?.started_at ?? null),
        finishedAt: iso(s?.finished_at ?? null),
        durationMs: s?.duration_ms ?? null,
        tokensIn: s?.tokens_in ?? 0,
        tokensOut: s?.tokens_out ?? 0,
        cost: s ? stepCost(s) : { tokensIn: 0, tokensOut: 0, usd: 0 },
      };
    }),
    actions,
  };
}
