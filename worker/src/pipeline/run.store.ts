import { runs, type Db, type RunStep, type StepDetail } from "@fixloop/db";
import type { StepId } from "../contract";

/** The run transitions the processor uses, owned by the db package. */
export const claimRun = runs.claim;
export const loadRun = runs.load;
export const endRun = runs.end;

export async function loadSteps(db: Db, runId: string): Promise<Map<StepId, RunStep>> {
  const rows = await db.selectFrom("run_steps").selectAll().where("run_id", "=", runId).execute();
  return new Map(rows.map((r) => [r.step, r]));
}

const emptyDetail = (): StepDetail => ({ files: [], info: [], warnings: [] });

export async function markStepRunning(
  db: Db,
  runId: string,
  step: StepId,
  detail: StepDetail = emptyDetail(),
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("run_steps")
      .values({ run_id: runId, step, status: "running", detail: JSON.stringify(detail), started_at: new Date() })
      .onConflict((oc) =>
        oc
          .columns(["run_id", "step"])
          .doUpdateSet({ status: "running", detail: JSON.stringify(detail), started_at: new Date() }),
      )
      .execute();
    await runs.enterStep(trx, runId, step);
  });
}

/** What a running step has reported so far; a reload shows it until the step ends. */
export async function storeStepProgress(db: Db, runId: string, step: StepId, detail: StepDetail): Promise<void> {
  await db
    .updateTable("run_steps")
    .set({ detail: JSON.stringify(detail) })
    .where("run_id", "=", runId)
    .where("step", "=", step)
    .where("status", "=", "running")
    .execute();
}

export interface StepResult {
  detail: StepDetail;
  output: unknown;
  tokensIn?: number;
  tokensOut?: number;
  costUsd?: number;
}

/** Stores a finished step's detail and full output; a retried job resumes after it. */
export async function storeStepResult(
  db: Db,
  runId: string,
  step: StepId,
  r: StepResult,
  startedAt: Date,
): Promise<void> {
  const finished = new Date();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("run_steps")
      .set({
        status: "completed",
        detail: JSON.stringify(r.detail),
        output: JSON.stringify(r.output),
        tokens_in: r.tokensIn ?? 0,
        tokens_out: r.tokensOut ?? 0,
        cost_usd: r.costUsd ?? 0,
        finished_at: finished,
        duration_ms: finished.getTime() - startedAt.getTime(),
      })
      .where("run_id", "=", runId)
      .where("step", "=", step)
      .execute();
    await runs.addSpend(trx, runId, r);
  });
}

/** Keeps what the model is about to see, with the estimate made from it, on the running step. */
export async function storeStepPrompt(
  db: Db,
  runId: string,
  step: StepId,
  prompt: { estimate: { usd: number } },
): Promise<void> {
  await db
    .updateTable("run_steps")
    .set({ prompt: JSON.stringify(prompt), estimate_usd: prompt.estimate.usd })
    .where("run_id", "=", runId)
    .where("step", "=", step)
    .execute();
}

export async function markStepFailed(db: Db, runId: string, step: StepId, detail: StepDetail): Promise<void> {
  await db
    .updateTable("run_steps")
    .set({ status: "failed", detail: JSON.stringify(detail), finished_at: new Date() })
    .where("run_id", "=", runId)
    .where("step", "=", step)
    .execute();
}
