import { sql } from "kysely";
import { releaseRunQuota, type Db, type RunStep, type SolveRun, type StepDetail } from "@fixloop/db";
import type { StepId } from "../contract";
import { ACTIVE_RUN_STATUSES } from "@fixloop/db/domain";

/** Claims a run for this attempt: queued/running → running. Null when it already ended. */
export async function claimRun(db: Db, runId: string): Promise<SolveRun | null> {
  const run = await db
    .updateTable("solve_runs")
    .set({ status: "running", started_at: sql`coalesce(started_at, now())`, attempts: sql`attempts + 1` })
    .where("id", "=", runId)
    .where("status", "in", ACTIVE_RUN_STATUSES)
    .returningAll()
    .executeTakeFirst();
  return run ?? null;
}

export async function loadRun(db: Db, runId: string): Promise<SolveRun | undefined> {
  return db.selectFrom("solve_runs").selectAll().where("id", "=", runId).executeTakeFirst();
}

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
    await trx.updateTable("solve_runs").set({ current_step: step }).where("id", "=", runId).execute();
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
    if (r.tokensIn || r.tokensOut || r.costUsd) {
      await trx
        .updateTable("solve_runs")
        .set({
          tokens_in: sql`tokens_in + ${r.tokensIn ?? 0}`,
          tokens_out: sql`tokens_out + ${r.tokensOut ?? 0}`,
          cost_usd: sql`cost_usd + ${r.costUsd ?? 0}`,
        })
        .where("id", "=", runId)
        .execute();
    }
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

/** Ends a run as failed or cancelled (once) with its quota unit released; the issue goes to `failed` unless another run solved it. */
export async function endRun(
  db: Db,
  run: Pick<SolveRun, "id" | "issue_id" | "kind">,
  status: "failed" | "cancelled",
  error: { code: string; message: string },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable("solve_runs")
      .set({ status, error_code: error.code, error_message: error.message, finished_at: new Date() })
      .where("id", "=", run.id)
      .where("status", "in", ACTIVE_RUN_STATUSES)
      .executeTakeFirst();
    // A run that ends unfinished gives its quota unit back in the same commit: no reader sees it failed yet charged.
    await releaseRunQuota(trx, run.id);
    if (Number(r.numUpdatedRows) !== 1) return false;
    if (run.kind === "solve") {
      const next = status === "failed" ? "failed" : "open";
      await trx
        .updateTable("issues")
        .set({ status: next, updated_at: new Date() })
        .where("id", "=", run.issue_id)
        .where("status", "=", "analyzing")
        .execute();
    }
    return true;
  });
}
