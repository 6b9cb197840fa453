import type { Kysely, Transaction } from "kysely";
import type { Database, RunStep } from "../schema";
import type { StepDetail, StepId } from "@fixloop/contract";
import { stepDetail, stepOutput, stepPrompt } from "./json-columns";
import * as runs from "./runs";
import { fenced, holdClaim, runIdOf, type RunRef } from "./runs.claims";

type Conn = Kysely<Database> | Transaction<Database>;

/** A stored step with its detail decoded (output and prompt stay as stored; their readers decode them). */
export type StepRecord = Omit<RunStep, "detail"> & { detail: StepDetail };

/** A run's stored steps by id (only those of `only` when given), their detail read leniently. */
export async function load(db: Conn, runId: string, only?: readonly StepId[]): Promise<Map<StepId, StepRecord>> {
  let q = db.selectFrom("run_steps").selectAll().where("run_id", "=", runId);
  if (only) q = q.where("step", "in", only);
  const rows = await q.execute();
  return new Map(rows.map((r) => [r.step, { ...r, detail: stepDetail.read(r.detail) }]));
}

const emptyDetail = (): StepDetail => ({ files: [], info: [], warnings: [] });

/**
 * The step starts (or starts again): → running, and the run is at it. Every write of a step takes
 * the run's claim (see runs.claims): a worker that lost the run writes no step (ClaimLost).
 */
export async function markRunning(
  db: Kysely<Database>,
  ref: RunRef,
  step: StepId,
  detail: StepDetail = emptyDetail(),
): Promise<void> {
  const d = stepDetail.write(detail);
  const runId = runIdOf(ref);
  await db.transaction().execute(async (trx) => {
    // First: the claim's check, the run's row held (not against a Cancel) until the step is written.
    await holdClaim(trx, ref);
    await trx
      .insertInto("run_steps")
      .values({ run_id: runId, step, status: "running", detail: d, started_at: new Date() })
      .onConflict((oc) =>
        oc.columns(["run_id", "step"]).doUpdateSet({ status: "running", detail: d, started_at: new Date() }),
      )
      .execute();
    await runs.enterStep(trx, ref, step);
  });
}

/** What a running step has reported so far; a reload shows it until the step ends. */
export async function storeProgress(db: Conn, ref: RunRef, step: StepId, detail: StepDetail): Promise<void> {
  const runId = runIdOf(ref);
  await fenced(db, ref, (c) =>
    c
      .updateTable("run_steps")
      .set({ detail: stepDetail.write(detail) })
      .where("run_id", "=", runId)
      .where("step", "=", step)
      .where("status", "=", "running")
      .execute(),
  );
}

export interface StepResult {
  detail: StepDetail;
  output: object;
  tokensIn?: number;
  tokensOut?: number;
  costUsd?: number;
}

/** A finished step: → completed with its detail and full output (a retried job resumes after it). The run's totals are the ledger's (spend.repository). */
export async function storeResult(
  db: Kysely<Database>,
  ref: RunRef,
  step: StepId,
  r: StepResult,
  startedAt: Date,
): Promise<void> {
  const finished = new Date();
  const values = { detail: stepDetail.write(r.detail), output: stepOutput.write(r.output) };
  const runId = runIdOf(ref);
  await fenced(db, ref, (c) =>
    c
      .updateTable("run_steps")
      .set({
        status: "completed",
        ...values,
        tokens_in: r.tokensIn ?? 0,
        tokens_out: r.tokensOut ?? 0,
        cost_usd: r.costUsd ?? 0,
        finished_at: finished,
        duration_ms: finished.getTime() - startedAt.getTime(),
      })
      .where("run_id", "=", runId)
      .where("step", "=", step)
      .execute(),
  );
}

/** Keeps what the model is about to see, with the estimate made from it, on the running step. */
export async function storePrompt(
  db: Conn,
  ref: RunRef,
  step: StepId,
  prompt: Parameters<typeof stepPrompt.write>[0] & { estimate: { usd: number } },
): Promise<void> {
  await fenced(db, ref, (c) =>
    c
      .updateTable("run_steps")
      .set({ prompt: stepPrompt.write(prompt), estimate_usd: prompt.estimate.usd })
      .where("run_id", "=", runIdOf(ref))
      .where("step", "=", step)
      .execute(),
  );
}

/** The step failed: → failed, with the detail that says why. */
export async function markFailed(db: Conn, ref: RunRef, step: StepId, detail: StepDetail): Promise<void> {
  await fenced(db, ref, (c) =>
    c
      .updateTable("run_steps")
      .set({ status: "failed", detail: stepDetail.write(detail), finished_at: new Date() })
      .where("run_id", "=", runIdOf(ref))
      .where("step", "=", step)
      .execute(),
  );
}

/** Copies completed steps of another run into this one (a step it already has is kept), in one statement. */
export async function copyCompleted(
  db: Conn,
  ref: RunRef,
  steps: { step: StepId; detail: StepDetail; output: unknown }[],
): Promise<void> {
  if (steps.length === 0) return;
  const at = new Date();
  const runId = runIdOf(ref);
  await fenced(db, ref, (c) =>
    c
      .insertInto("run_steps")
      .values(
        steps.map((s) => {
          const output = stepOutput.read(s.output);
          return {
            run_id: runId,
            step: s.step,
            status: "completed" as const,
            detail: stepDetail.write(s.detail),
            output: output && stepOutput.write(output),
            started_at: at,
            finished_at: at,
            duration_ms: 0,
          };
        }),
      )
      .onConflict((oc) => oc.columns(["run_id", "step"]).doNothing())
      .execute(),
  );
}

/** A stored step without its large columns (the prompt has its own read). */
export type StepRow = Omit<StepRecord, "prompt" | "output">;
const VIEW_COLUMNS = [
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

/** The run's steps as a view shows them, their detail read leniently. */
export async function listForView(db: Conn, runId: string): Promise<StepRow[]> {
  const rows = await db.selectFrom("run_steps").select(VIEW_COLUMNS).where("run_id", "=", runId).execute();
  return rows.map((r) => ({ ...r, detail: stepDetail.read(r.detail) }));
}

/** The prompt the run's generating step sent (or was about to send when a cap stopped it), as stored. */
export async function generatingPrompt(db: Conn, runId: string): Promise<unknown> {
  const row = await db
    .selectFrom("run_steps")
    .select("prompt")
    .where("run_id", "=", runId)
    .where("step", "=", "generating")
    .executeTakeFirst();
  return row?.prompt;
}

/** The stored output of the run's generating step (its agent trajectories among it), as stored. */
export async function generatingOutput(db: Conn, runId: string): Promise<unknown> {
  const row = await db
    .selectFrom("run_steps")
    .select("output")
    .where("run_id", "=", runId)
    .where("step", "=", "generating")
    .executeTakeFirst();
  return row?.output;
}
