import type { QueueName } from "@fixloop/contract";
import type { WorkerContext } from "../context";
import { startReconcilers } from "../reconcilers/reconciler.define";
import {
  crashedReservations,
  leftRepositories,
  RECONCILERS,
  staleBacktests,
  unheldRuns,
} from "../reconcilers/reconcilers";

export interface Sweep {
  requeued: string[];
  unconfirmed: number;
  /** Backtests ended as not finishing in time. */
  expiredBacktests: string[];
  /** Runs stopped because their issue's repository left the user's list. */
  accessLost: string[];
}

/**
 * One pass of every registered reconciler, in their order (see RECONCILERS), by one worker per
 * interval across all workers (a Redis lock): what a test or an operator asks for at once.
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
  const accessLost = await leftRepositories.run(ctx);
  const recovered = await crashedReservations.run(ctx);
  const { requeued, unconfirmed } = await unheldRuns.run(ctx);
  const expiredBacktests = await staleBacktests.run(ctx);
  return { requeued, unconfirmed: recovered + unconfirmed, expiredBacktests, accessLost };
}

/** Starts each registered reconciler serving one of `served` on its own interval. */
export function startSweeper(ctx: WorkerContext, served: readonly QueueName[]): { stop(): void } {
  return startReconcilers(ctx, RECONCILERS, served);
}
