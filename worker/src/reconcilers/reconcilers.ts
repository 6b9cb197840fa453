import { enqueueRun, stopRunsOfLeftRepositories } from "@fixloop/runtime";
import { jobIds, QUEUES } from "@fixloop/contract";
import { backtests, recoverReservations, runs } from "@fixloop/db";
import type { WorkerContext } from "../context";
import { defineReconciler, type Reconciler } from "./reconciler.define";

/** Runs younger than this are left alone: their job may simply not have been picked up yet. */
const GRACE_SECONDS = 30;
const every = (ctx: WorkerContext) => ctx.env.SWEEP_INTERVAL_SECONDS;

/**
 * Stops the runs of issues whose repository left the user's list (a sync that removed it may have
 * failed before stopping them, and the user may not sync again). Before unheldRuns: such a run
 * that no job holds ends here instead of being run again.
 */
export const leftRepositories = defineReconciler({
  name: "left-repositories",
  queues: [QUEUES.solve, QUEUES.backtest],
  intervalSeconds: every,
  run: (ctx) => stopRunsOfLeftRepositories(ctx),
  count: (ids) => ids.length,
});

/** Records the model requests a crash left reserved (of ended runs too) at their worst case, unconfirmed. */
export const crashedReservations = defineReconciler({
  name: "crashed-reservations",
  queues: [QUEUES.solve, QUEUES.backtest],
  intervalSeconds: every,
  run: (ctx) => recoverReservations(ctx.db, {}),
  count: (n) => n,
});

/**
 * Re-enqueues runs that Postgres says are unfinished but that no BullMQ job holds (e.g. after Redis
 * lost its data); a finished job whose run is unfinished ended without recording it, and runs
 * again (steps already stored are skipped). A backtest's solves are runs as any other. Answers the runs requeued and the reservations of
 * theirs recorded at their worst case.
 */
export const unheldRuns = defineReconciler({
  name: "unheld-runs",
  queues: [QUEUES.solve, QUEUES.backtest],
  intervalSeconds: every,
  async run(ctx) {
    const requeued: string[] = [];
    let unconfirmed = 0;
    for (const runId of await runs.unfinishedOlderThan(ctx.db, GRACE_SECONDS)) {
      const job = await ctx.queues.solve.getJob(jobIds.solve(runId));
      const state = job ? await job.getState() : "missing";
      if (state !== "missing" && state !== "unknown" && state !== "completed" && state !== "failed") continue;
      if (job) await job.remove().catch(() => {});
      unconfirmed += await recoverReservations(ctx.db, { runId });
      await enqueueRun(ctx, runId);
      requeued.push(runId);
    }
    return { requeued, unconfirmed };
  },
  count: (r) => r.requeued.length,
});

/**
 * Ends the backtests whose job was lost (queued or running past their limit, see
 * backtests.expireStale), with their solve runs: else such a backtest shows running on its card
 * until a new one is asked for.
 */
export const staleBacktests = defineReconciler({
  name: "stale-backtests",
  queues: [QUEUES.solve, QUEUES.backtest],
  intervalSeconds: every,
  run: (ctx) => backtests.expireStale(ctx.db),
  count: (ids) => ids.length,
});

/** Every reconciler, in the order one sweep runs them (see sweepOnce). */
export const RECONCILERS: readonly Reconciler[] = [
  leftRepositories,
  crashedReservations,
  unheldRuns,
  staleBacktests,
] as Reconciler[];
