import { enqueueRun, stopRunsOfLeftRepositories } from "@fixloop/runtime";
import { jobIds } from "@fixloop/contract";
import type { WorkerContext } from "../context";
import { backtests, recoverReservations, runs as solveRuns } from "@fixloop/db";

/** Runs younger than this are left alone: their job may simply not have been picked up yet. */
const GRACE_SECONDS = 30;

export interface Sweep {
  requeued: string[];
  unconfirmed: number;
  /** Backtests ended as not finishing in time. */
  expiredBacktests: string[];
  /** Runs stopped because their issue's repository left the user's list. */
  accessLost: string[];
}

/**
 * Re-enqueues runs that Postgres says are unfinished but that no BullMQ job holds (e.g. after
 * Redis lost its data), records the model requests a crash left reserved (of those runs and
 * of runs that ended) at their worst case, unconfirmed, and ends the backtests of every
 * repository whose job was lost (queued or running past their limit, see backtests.expireStale),
 * with their solve runs left running, and stops the runs of issues whose repository left the
 * user's list (a sync that removed it may have failed before stopping them, and the user may not
 * sync again). One sweeper per interval across all workers, by a Redis lock.
 */
export async function sweepOnce(ctx: WorkerContext, intervalSeconds: number): Promise<Sweep> {
  const lock = await ctx.redis.set(
    `${ctx.queues.prefix}:sweeper-lock`,
    String(process.pid),
    "EX",
    Math.max(1, intervalSeconds - 1),
    "NX",
  );
  if (lock !== "OK") return { requeued: [], unconfirmed: 0, expiredBacktests: [], accessLost: [] };
  // First: such a run that no job holds ends here instead of being run again below.
  const accessLost = await stopRunsOfLeftRepositories(ctx);
  let unconfirmed = await recoverReservations(ctx.db, {});
  const runIds = await solveRuns.unfinishedOlderThan(ctx.db, GRACE_SECONDS);
  const requeued: string[] = [];
  for (const runId of runIds) {
    const id = jobIds.solve(runId);
    const job = await ctx.queues.solve.getJob(id);
    const state = job ? await job.getState() : "missing";
    if (state === "missing" || state === "unknown" || state === "completed" || state === "failed") {
      // A finished job whose run is unfinished ended without recording it; run it again (steps already stored are skipped).
      if (job) await job.remove().catch(() => {});
      unconfirmed += await recoverReservations(ctx.db, { runId });
      await enqueueRun(ctx, runId);
      requeued.push(runId);
    }
  }
  // Else such a backtest would show running on its card until a new one is asked for.
  const expiredBacktests = await backtests.expireStale(ctx.db);
  if (expiredBacktests.length)
    ctx.logger.warn({ backtests: expiredBacktests }, "sweeper ended backtests that did not finish in time");
  if (requeued.length) ctx.logger.warn({ runs: requeued }, "sweeper re-enqueued unfinished runs");
  if (unconfirmed)
    ctx.logger.warn({ unconfirmed }, "model requests a crash left reserved recorded at their worst case");
  return { requeued, unconfirmed, expiredBacktests, accessLost };
}

export function startSweeper(ctx: WorkerContext, intervalSeconds: number): { stop(): void } {
  const timer = setInterval(() => {
    sweepOnce(ctx, intervalSeconds).catch((err: Error) => ctx.logger.warn({ err: err.message }, "sweep failed"));
  }, intervalSeconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
