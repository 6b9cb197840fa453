import { stepDetail, type Db, type RunStep, type SolveRun } from "@fixloop/db";
import {
  STEPS,
  STEP_LABELS,
  promptRecordOf,
  stepCost,
  stepDetailOf,
  type PromptRecord,
  type RunView,
} from "@fixloop/contract";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: string) => UUID.test(s);

/** A run of the caller's, or undefined (another user's run is indistinguishable from a missing one). */
export async function findOwnedRun(db: Db, userId: string, runId: string): Promise<SolveRun | undefined> {
  if (!isUuid(runId)) return undefined;
  return db
    .selectFrom("solve_runs")
    .selectAll()
    .where("id", "=", runId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
}

/** A stored step without its large columns (the prompt has its own route). */
export type StepRow = Omit<RunStep, "prompt" | "output">;
const STEP_COLUMNS = [
  "run_id",
  "step",
  "status",
  "detail",
  "tokens_in",
  "tokens_out",
  "cost_usd",
  "estimate_usd",
  "started_at",
  "finished_at",
  "duration_ms",
] as const;

export async function runSteps(db: Db, runId: string): Promise<StepRow[]> {
  return db.selectFrom("run_steps").select(STEP_COLUMNS).where("run_id", "=", runId).execute();
}

/** The prompt the run's generating step sent (or was about to send when a cap stopped it). */
export async function runPrompt(db: Db, runId: string): Promise<PromptRecord | null> {
  const row = await db
    .selectFrom("run_steps")
    .select("prompt")
    .where("run_id", "=", runId)
    .where("step", "=", "generating")
    .executeTakeFirst();
  return promptRecordOf(row?.prompt);
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The run as the API shows it: every step in order with status, detail and timings. */
export function presentRun(run: SolveRun, steps: StepRow[]): RunView {
  const byStep = new Map(steps.map((s) => [s.step, s]));
  return {
    _id: run.id,
    id: run.id,
    kind: run.kind,
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
    steps: STEPS.map((id) => {
      const s = byStep.get(id);
      return {
        id,
        label: STEP_LABELS[id],
        status: s?.status ?? "pending",
        detail: stepDetailOf(stepDetail.read(s?.detail)),
        startedAt: iso(s?.started_at ?? null),
        finishedAt: iso(s?.finished_at ?? null),
        durationMs: s?.duration_ms ?? null,
        tokensIn: s?.tokens_in ?? 0,
        tokensOut: s?.tokens_out ?? 0,
        cost: s ? stepCost(s) : { tokensIn: 0, tokensOut: 0, usd: 0 },
      };
    }),
  };
}
