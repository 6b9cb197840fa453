import { DelayedError, type Job } from "bullmq";
import { jobIds, queuedNote, STEPS } from "@fixloop/contract";
import { runs } from "@fixloop/db";
import { openRunEventLog, type RunEventLog } from "@fixloop/runtime";
import type { WorkerContext } from "../context";

/** How long a run held back by its user's cap waits before it is tried again; one of their runs ending brings it forward sooner. */
export const DEFER_MS = 5_000;

/** The run's user already runs their plan's cap of runs: the run stays queued and its job is tried again later. */
export class RunDeferred extends Error {
  constructor(readonly userId: string) {
    super("The user's active-run cap is reached");
    this.name = "RunDeferred";
  }
}

/** Says in the run's first step why it still waits (a pending step event: the run stays queued). */
export async function noteQueued(log: RunEventLog, note: string): Promise<void> {
  await log.emit({
    type: "step",
    step: STEPS[0],
    status: "pending",
    detail: { files: [], info: [note], warnings: [] },
    at: new Date().toISOString(),
  });
}

/**
 * Sends a deferred job back to BullMQ's delayed set without counting an attempt (the processor then
 * throws DelayedError so the worker neither completes nor fails it). Jitter spreads the user's
 * deferred jobs so they do not all come back at once.
 */
export async function deferJob(job: Job, token: string | undefined): Promise<never> {
  await job.moveToDelayed(Date.now() + Math.round(DEFER_MS * (0.75 + Math.random() * 0.5)), token);
  throw new DelayedError();
}

/**
 * After one of a user's runs ended: each of their queued runs is told its new place, and those a
 * freed slot can take now are brought forward from their deferral.
 */
export async function announceUserQueue(ctx: WorkerContext, userId: string): Promise<void> {
  const q = await runs.userQueue(ctx.db, userId);
  const cap = ctx.env.MAX_ACTIVE_RUNS_PER_USER[q.plan];
  for (const { runId, ahead } of q.queued) {
    // One run fewer is ahead of each: a run that had fewer than the cap ahead said "waiting for a free worker" and still does.
    if (ahead + 1 < cap) continue;
    await noteQueued(await openRunEventLog(ctx.redis, ctx.queues.prefix, runId), queuedNote(ahead, cap));
    if (ahead >= cap) continue;
    const job = await ctx.queues.solve.getJob(jobIds.solve(runId));
    // Another worker may take or move it meanwhile; then there is nothing to bring forward.
    if (job && (await job.isDelayed())) await job.promote().catch(() => {});
  }
}
