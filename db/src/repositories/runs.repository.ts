import { randomUUID } from "node:crypto";
import { sql, type Kysely, type Transaction } from "kysely";
import {
  ACTIVE_RUN_STATUSES,
  BACKTEST_ENDED,
  type ErrorBody,
  RUN_CANCELLED,
  refineInputOf,
  refineSupersededReason,
  type StepId,
} from "@fixloop/contract";
import type { Database, NewSolveRun, SolveRun } from "../schema";
import * as issues from "./issues.repository";
import { runInput, type RunInput } from "./json-columns";
import * as solutions from "./solutions.repository";
import { chargeRunQuota, releaseRunQuota } from "./usage.repository";
import { askedByUser, ofBacktest } from "./runs.kinds";
import { ClaimLost, fenced, holdClaim, runIdOf, type RunClaim, type RunRef } from "./runs.claims";

type Conn = Kysely<Database> | Transaction<Database>;

/** A refinement's result is not written: the solution was decided or changed after it started (the run fails, uncharged). */
export class RefineSuperseded extends Error {
  readonly code = "refine.superseded";
  constructor(message: string) {
    super(message);
    this.name = "RefineSuperseded";
  }
}

/** A new queued run holding a reserved quota unit (a second open run of the issue fails with 23505). */
export async function create(
  trx: Transaction<Database>,
  run: Omit<NewSolveRun, "status" | "quota_state" | "quota_period_start" | "input"> & {
    quotaPeriodStart: Date;
    input?: RunInput;
  },
): Promise<string> {
  const { quotaPeriodStart, input, ...values } = run;
  const r = await trx
    .insertInto("solve_runs")
    .values({
      ...values,
      input: runInput.write(input ?? {}),
      quota_state: "reserved",
      quota_period_start: quotaPeriodStart,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return r.id;
}

/**
 * Claims a run for this attempt: queued/running → running, with `token` on the row (a worker that
 * held it before loses its claim: its later writes land nowhere). Null when it already ended.
 */
export async function claim(db: Conn, runId: string, token: string = randomUUID()): Promise<SolveRun | null> {
  const run = await db
    .updateTable("solve_runs")
    .set({
      status: "running",
      started_at: sql`coalesce(started_at, now())`,
      attempts: sql`attempts + 1`,
      claim_token: token,
    })
    // FOR UPDATE, not the update's own lock: it waits for every write fenced by the claim it replaces (see holdClaim).
    .where("id", "=", (eb) => eb.selectFrom("solve_runs").select("id").where("id", "=", runId).forUpdate())
    .where("status", "in", ACTIVE_RUN_STATUSES)
    .returningAll()
    .executeTakeFirst();
  return run ?? null;
}

/** The step the run is at now (ClaimLost when `ref` is a claim the run no longer carries). */
export async function enterStep(db: Conn, ref: RunRef, step: StepId): Promise<void> {
  let q = db.updateTable("solve_runs").set({ current_step: step }).where("id", "=", runIdOf(ref));
  if (typeof ref !== "string") q = q.where("claim_token", "=", ref.token);
  const r = await q.executeTakeFirst();
  if (typeof ref !== "string" && Number(r.numUpdatedRows) !== 1) throw new ClaimLost(ref.runId);
}

/**
 * Stores the outcome of a finished run exactly once: a new solution (solve) or a new revision
 * of the existing one (refine), the run completed, its quota charged, the issue solved.
 * Returns the solution id (also when an earlier attempt already finished the run).
 */
export async function finish(
  db: Kysely<Database>,
  ref: RunRef,
  p: solutions.Proposal & { baseCommitSha: string | null; feedback: string | null },
): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const run = await trx
      .selectFrom("solve_runs")
      .selectAll()
      .where("id", "=", runIdOf(ref))
      .forUpdate()
      .executeTakeFirstOrThrow();
    // Before anything else: a worker that lost the run writes nothing, not even a repeat of the new holder's end.
    if (typeof ref !== "string" && run.claim_token !== ref.token) throw new ClaimLost(ref.runId);
    if (run.status === "completed" && run.solution_id) return run.solution_id;
    if (run.status !== "running") throw new Error(`run ${run.id} is ${run.status}`);
    // A cancel flagged while the last step ended wins: the worker ends the run cancelled, writing no solution.
    if (run.cancel_requested_at) throw new Error(`run ${run.id} is being cancelled`);
    let solutionId: string;
    if (run.kind === "refine" && run.solution_id) {
      const current = await solutions.lockForRefinement(trx, run.solution_id);
      const superseded = refineSupersededReason(current, refineInputOf(run.input));
      if (superseded)
        throw new RefineSuperseded(`Not applied: ${superseded}; refine the solution as it is now instead`);
      const refinementCount = current.refinement_count + 1;
      solutionId = await solutions.recordRefinement(trx, run.id, run.solution_id, {
        ...p,
        metadata: { ...p.metadata, refinementCount },
        refinementCount,
      });
    } else {
      solutionId = await solutions.recordGenerated(trx, run, { ...p, metadata: { ...p.metadata, refinementCount: 0 } });
    }
    await trx
      .updateTable("solve_runs")
      .set({ status: "completed", solution_id: solutionId, finished_at: new Date() })
      .where("id", "=", run.id)
      .execute();
    await chargeRunQuota(trx, run.id);
    return solutionId;
  });
}

/**
 * Ends a run that makes no solution (a backtest's solve) completed, its quota unit charged in the
 * same commit; false when it is not running (it ended with its backtest meanwhile: that end stays).
 */
export async function completeWithoutSolution(db: Kysely<Database>, ref: RunRef): Promise<boolean> {
  return db.transaction().execute((t) =>
    fenced(t, ref, async (trx) => {
      const r = await trx
        .updateTable("solve_runs")
        .set({ status: "completed", finished_at: new Date() })
        .where("id", "=", runIdOf(ref))
        .where(ofBacktest)
        .where("status", "=", "running")
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return false;
      await chargeRunQuota(trx, runIdOf(ref));
      return true;
    }),
  );
}

/**
 * Ends, failed with BACKTEST_ENDED, every run of backtest `backtestId` still queued or running (its
 * backtest ended before it did), each with its quota unit given back and flagged for cancellation,
 * so the worker solving it stops at its next look at the flag (see watchCancel) and spends nothing
 * more. Only rows still active change, each once, so two ends of the backtest at once, or one
 * racing the run's own end, settle a run once. Run in the transaction that ends the backtest.
 * Answers the runs it ended.
 */
export async function endOfBacktest(trx: Transaction<Database>, backtestId: string): Promise<string[]> {
  const left = await trx
    .updateTable("solve_runs")
    .set({
      status: "failed",
      error_code: BACKTEST_ENDED.code,
      error_message: BACKTEST_ENDED.message,
      finished_at: new Date(),
      cancel_requested_at: sql`coalesce(cancel_requested_at, now())`,
      cancel_error_code: sql`coalesce(cancel_error_code, ${BACKTEST_ENDED.code})`,
      cancel_error_message: sql`coalesce(cancel_error_message, ${BACKTEST_ENDED.message})`,
    })
    .where("backtest_id", "=", backtestId)
    .where("status", "in", ACTIVE_RUN_STATUSES)
    .returning("id")
    .execute();
  for (const { id } of left) await releaseRunQuota(trx, id);
  return left.map((r) => r.id);
}

/** Ends a run as failed or cancelled (once) with its quota unit released; the issue goes to `failed` unless another run solved it. */
export async function end(
  db: Kysely<Database>,
  run: Pick<SolveRun, "id" | "issue_id" | "kind">,
  status: "failed" | "cancelled",
  error: { code: string; message: string },
  /** The worker's claim: without it (a seeding script, a test) the run ends whoever holds it. */
  claim?: RunClaim,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (claim) await holdClaim(trx, claim);
    const r = await trx
      .updateTable("solve_runs")
      .set({ status, error_code: error.code, error_message: error.message, finished_at: new Date() })
      .where("id", "=", run.id)
      .where("status", "in", ACTIVE_RUN_STATUSES)
      .executeTakeFirst();
    // A run that ends unfinished gives its quota unit back in the same commit: no reader sees it failed yet charged.
    await releaseRunQuota(trx, run.id);
    if (Number(r.numUpdatedRows) !== 1) return false;
    if (run.kind === "solve") await issues.endAnalysis(trx, run.issue_id, status);
    return true;
  });
}

/**
 * A run whose job could not be queued fails at once, its quota unit given back; false when it is
 * no longer queued. The queue may have taken the job though its answer was lost: a worker that
 * claimed the run meanwhile keeps it, and its quota unit, running.
 */
export async function failUnqueued(db: Kysely<Database>, runId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const failed = await trx
      .updateTable("solve_runs")
      .set({
        status: "failed",
        error_code: "queue.unavailable",
        error_message: "The job queue is unavailable",
        finished_at: new Date(),
      })
      .where("id", "=", runId)
      .where("status", "=", "queued")
      .executeTakeFirst();
    if (Number(failed.numUpdatedRows) !== 1) return false;
    await releaseRunQuota(trx, runId);
    return true;
  });
}

/**
 * Flags an active run for cancellation with `error` as the reason it will end with; false when it
 * already ended. The first request's time and reason stay: a later one (the issue marked gone after
 * the user's Cancel, or the reverse) does not change why the run ends.
 */
export async function requestCancel(db: Conn, runId: string, error: ErrorBody = RUN_CANCELLED): Promise<boolean> {
  const flagged = await db
    .updateTable("solve_runs")
    .set({
      cancel_requested_at: sql`coalesce(cancel_requested_at, now())`,
      cancel_error_code: sql`coalesce(cancel_error_code, ${error.code})`,
      cancel_error_message: sql`coalesce(cancel_error_message, ${error.message})`,
    })
    .where("id", "=", runId)
    .where("status", "in", ACTIVE_RUN_STATUSES)
    .returning("id")
    .executeTakeFirst();
  return !!flagged;
}

/**
 * A queued run ends cancelled, its quota unit given back in the same commit. Its reason is the one
 * stored with its cancel request (see requestCancel), else `error`. Answers the reason it ended
 * with; null when it is not queued.
 */
export async function cancelQueued(
  db: Kysely<Database>,
  runId: string,
  error: ErrorBody = RUN_CANCELLED,
): Promise<ErrorBody | null> {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable("solve_runs")
      .set({
        status: "cancelled",
        error_code: sql`coalesce(cancel_error_code, ${error.code})`,
        error_message: sql`coalesce(cancel_error_message, ${error.message})`,
        finished_at: new Date(),
      })
      .where("id", "=", runId)
      .where("status", "=", "queued")
      .returning(["error_code", "error_message"])
      .executeTakeFirst();
    if (!r) return null;
    await releaseRunQuota(trx, runId);
    return { code: r.error_code ?? error.code, message: r.error_message ?? error.message };
  });
}

/**
 * A run stopped by a spending cap is queued again with a new reserved unit; false when it is not
 * such a run. A cancel request it still carries was for the attempt the cap ended (a Cancel that
 * came while the worker was ending it failed): it is cleared, so the user's Resume, asked after
 * that end, is not taken for a Cancel at pick-up. An issue gone from GitHub still stops it then.
 */
export async function requeueCapStop(
  trx: Transaction<Database>,
  runId: string,
  quotaPeriodStart: Date,
): Promise<boolean> {
  const r = await trx
    .updateTable("solve_runs")
    .set({
      status: "queued",
      error_code: null,
      error_message: null,
      finished_at: null,
      quota_state: "reserved",
      quota_period_start: quotaPeriodStart,
      cancel_requested_at: null,
      cancel_error_code: null,
      cancel_error_message: null,
    })
    .where("id", "=", runId)
    .where("status", "=", "failed")
    .where("error_code", "like", "cost.%")
    .where(askedByUser)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
