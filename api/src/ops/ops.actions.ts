import { runs } from "@fixloop/db";
import { findWorker, requestWorkerDrain } from "@fixloop/runtime";
import type { Queue } from "bullmq";
import type { AppDeps } from "../deps";
import { cancelRun } from "../solve/solve.cancel";
import { opsErrors } from "./ops.errors";

type Deps = Pick<AppDeps, "db" | "redis" | "queues">;

/** The queue by name, or 404 `ops.queue_not_found`. */
export function queueNamed(deps: Deps, name: string): Queue {
  const queue = deps.queues.all().find((q) => q.name === name);
  if (!queue) throw opsErrors.queueNotFound(name);
  return queue;
}

/** Pauses or resumes a queue for every worker (BullMQ's global pause: active jobs finish). */
export async function setQueuePaused(queue: Queue, paused: boolean) {
  if (paused) await queue.pause();
  else await queue.resume();
  return { queue: queue.name, paused: await queue.isPaused() };
}

/** How many failed jobs a single retry request moves back to waiting. */
const RETRY_BATCH = 1_000;

/** Moves a queue's failed jobs back to waiting (at most RETRY_BATCH per request); answers how many. */
export async function retryFailed(queue: Queue) {
  const failed = await queue.getFailedCount();
  const retried = Math.min(failed, RETRY_BATCH);
  if (retried) await queue.retryJobs({ state: "failed", count: retried });
  return { queue: queue.name, retried };
}

/** Asks one live worker process to drain; 404 when it is not listed, 409 when it already drains. */
export async function drainWorker(deps: Deps, id: string) {
  const worker = await findWorker(deps.redis, deps.queues.prefix, id);
  if (!worker) throw opsErrors.workerNotFound();
  if (worker.state !== "running") throw opsErrors.workerNotRunning(worker.state);
  const heard = await requestWorkerDrain(deps.redis, deps.queues.prefix, id);
  if (!heard) throw opsErrors.workerNotFound();
  return { workerId: id, host: worker.host, pid: worker.pid, state: "draining" as const };
}

/** Cancels any user's run as its owner would (queued: ended here; running: the worker aborts it). */
export async function cancelAnyRun(deps: Deps, runId: string) {
  const run = await runs.load(deps.db, runId);
  if (!run) throw opsErrors.runNotFound();
  const status = await cancelRun(deps, run);
  return { runId: run.id, userId: run.user_id, status };
}
