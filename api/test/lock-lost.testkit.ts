import pino from "pino";
import type { Job } from "bullmq";
import { expect } from "vitest";
import type { QueueName } from "@fixloop/contract";
import { startWorkers, type RunningWorkers, type StallTimings, type WorkerContext } from "@fixloop/worker";
import type { TestStack } from "./stack";

/**
 * Workers of one queue that a lock-lost test starts itself, one after the other, beside the
 * stack's own. `closeAll` belongs in the file's `afterAll`, after anything that could hold a job
 * open (a model stand-in keeping a request) is stopped.
 */
export function queueWorkers(stack: () => Pick<TestStack, "ctx">, queue: QueueName) {
  const running = new Set<RunningWorkers>();
  return {
    /**
     * A worker with `env` over the stack's (a model stand-in of its own); its log lines go to `log`;
     * `stalls` shortens its lock and stall check (see holdEventLoop).
     */
    start(
      o: { env?: Record<string, string>; log?: Array<Record<string, unknown>>; stalls?: Partial<StallTimings> } = {},
    ): RunningWorkers {
      const { log, stalls } = o;
      const logger = log
        ? pino({ level: "info" }, { write: (s: string) => void log.push(JSON.parse(s) as Record<string, unknown>) })
        : pino({ level: "silent" });
      const ctx: WorkerContext = stack().ctx;
      const w = startWorkers(
        { ...ctx, env: { ...ctx.env, ...o.env }, logger },
        { queues: [queue], concurrency: 1, stalls },
      );
      running.add(w);
      return w;
    },
    /** Closes `w`, which waits for its job to end: whatever it was going to write is written by then. */
    async close(w: RunningWorkers) {
      running.delete(w);
      await w.close();
    },
    async closeAll() {
      for (const w of running) await w.close();
      running.clear();
    },
  };
}

/**
 * Takes `job`'s lock from the worker holding it and puts the job back in the queue, as BullMQ does
 * with a job whose lock lapsed. Answers when it was handed back.
 */
export async function lapseLock(
  stack: Pick<TestStack, "redis" | "prefix">,
  queue: QueueName,
  job: Job | undefined,
): Promise<number> {
  const token = await stack.redis.get(`${stack.prefix}:${queue}:${job?.id ?? ""}:lock`);
  expect(token, `${queue} job ${job?.id ?? "(none)"} holds a lock`).toBeTruthy();
  await job?.moveToWait(token ?? "");
  return Date.now();
}

/**
 * Holds this process's event loop for `ms`, as a CPU-bound stretch or a long pause would: no
 * worker in it renews a lock meanwhile, so a lock shorter than `ms` lapses in Redis with its job
 * still active, and the next stall check (BullMQ's own) finds the job stalled.
 */
export function holdEventLoop(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
