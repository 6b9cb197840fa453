import type { QueueName } from "@fixloop/contract";
import type { WorkerContext } from "../context";

/**
 * One repair of what Postgres and Redis disagree on after a crash or an outage: found and fixed on
 * its own interval, by one worker at a time (a Redis lock of its own name), in every process
 * serving one of its queues.
 */
export interface Reconciler<R = unknown> {
  /** Names its lock and its log lines. */
  name: string;
  /** The queues whose workers run it (a process serving none of them does not). */
  queues: readonly QueueName[];
  intervalSeconds(ctx: WorkerContext): number;
  /** One pass: fixes what it finds and answers what it fixed (logged when `count` of it is not 0). */
  run(ctx: WorkerContext): Promise<R>;
  count(result: R): number;
}

export const defineReconciler = <R>(r: Reconciler<R>): Reconciler<R> => r;

/** Takes the reconciler's turn for this interval across every worker; false when another has it. */
export async function takeTurn(ctx: WorkerContext, r: Reconciler, seconds: number): Promise<boolean> {
  const key = `${ctx.queues.prefix}:reconciler:${r.name}`;
  return (await ctx.redis.set(key, String(process.pid), "EX", Math.max(1, seconds - 1), "NX")) === "OK";
}

/** Runs one pass of `r` if this worker has its turn; null when it did not. */
export async function reconcileOnce<R>(ctx: WorkerContext, r: Reconciler<R>, seconds: number): Promise<R | null> {
  if (!(await takeTurn(ctx, r as Reconciler, seconds))) return null;
  const result = await r.run(ctx);
  const n = r.count(result);
  if (n) ctx.logger.warn({ reconciler: r.name, fixed: n, result }, `reconciler ${r.name} fixed what it found`);
  else ctx.logger.debug({ reconciler: r.name, fixed: 0 }, `reconciler ${r.name} found nothing to fix`);
  return result;
}

/** Starts every reconciler of `list` that serves one of `served` on its own interval. */
export function startReconcilers(
  ctx: WorkerContext,
  list: readonly Reconciler[],
  served: readonly QueueName[],
): { stop(): void } {
  const timers = list
    .filter((r) => r.queues.some((q) => served.includes(q)))
    .map((r) => {
      const seconds = r.intervalSeconds(ctx);
      const timer = setInterval(() => {
        reconcileOnce(ctx, r, seconds).catch((err: Error) =>
          ctx.logger.warn({ reconciler: r.name, err: err.message }, "reconciler failed"),
        );
      }, seconds * 1000);
      timer.unref();
      return timer;
    });
  return { stop: () => timers.forEach((t) => clearInterval(t)) };
}
