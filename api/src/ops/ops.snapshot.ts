import { ops } from "@fixloop/db";
import {
  finishedPerMinute,
  listLostWorkers,
  listWorkers,
  percentiles,
  queueDepth,
  recentJobDurations,
} from "@fixloop/runtime";
import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { AppDeps } from "../deps";

/** The throughput chart's window, in minutes. */
export const OPS_WINDOW_MINUTES = 60;
/** Completed jobs per queue whose durations make its percentiles. */
const DURATION_SAMPLE = 200;

async function queueView(queue: Queue, redis: Redis, now: number) {
  const [depth, completed, failed, durations] = await Promise.all([
    queueDepth(queue, now),
    finishedPerMinute(queue, "completed", OPS_WINDOW_MINUTES, now),
    finishedPerMinute(queue, "failed", OPS_WINDOW_MINUTES, now),
    recentJobDurations(queue, redis, DURATION_SAMPLE),
  ]);
  const done = completed.reduce((a, b) => a + b, 0);
  const lost = failed.reduce((a, b) => a + b, 0);
  return {
    ...depth,
    /** Per minute over the last hour, oldest first. */
    completedPerMinute: completed,
    failedPerMinute: failed,
    /** Share of the jobs finished in the last hour that failed; null when none finished. */
    failureRate: done + lost ? lost / (done + lost) : null,
    durationMs: percentiles(durations),
  };
}

/**
 * Everything the operations page shows, read once: queues from BullMQ (depth, throughput,
 * durations), pipeline steps and busiest users from Postgres, worker processes from the registry.
 */
export async function opsSnapshot(deps: Pick<AppDeps, "db" | "redis" | "queues">) {
  const { db, redis, queues } = deps;
  const now = Date.now();
  const [queueViews, steps, runDuration, users, runs, workers, lostWorkers] = await Promise.all([
    Promise.all(queues.all().map((q) => queueView(q, redis, now))),
    ops.stepDurationPercentiles(db),
    ops.runDurationPercentiles(db),
    ops.busiestUsers(db),
    ops.runsInFlight(db),
    listWorkers(redis, queues.prefix, now),
    listLostWorkers(redis, queues.prefix, now),
  ]);
  return {
    generatedAt: new Date(now).toISOString(),
    windowMinutes: OPS_WINDOW_MINUTES,
    queues: queueViews,
    steps,
    runDurationMs: runDuration,
    workers,
    /** Worker processes that stopped beating without a clean stop (killed), until dismissed. */
    lostWorkers,
    users,
    runs,
  };
}

export type OpsSnapshot = Awaited<ReturnType<typeof opsSnapshot>>;
