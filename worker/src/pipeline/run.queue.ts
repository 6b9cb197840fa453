import { jobIds, queuedNote, STEPS } from "@fixloop/contract";
import { runs } from "@fixloop/db";
import { openRunEventLog, type RunEventLog } from "@fixloop/runtime";
import type { WorkerContext } from "../context";
import { JobDeferred } from "../processors/processor.define";

/** How long a run held back by its user's cap waits before it is tried again; one of their runs ending brings it forward sooner. */
export const DEFER_MS = 5_000;

/**
 * The run's user already runs their plan's cap of runs: the run stays queued and its job goes back
 * to the delayed set without counting an attempt (see defineProcessor). Jitter spreads the user's
 * deferred jobs so they do not all come back at once.
 */
export class RunDeferred extends JobDeferred {
  constructor(readonly userId: string) {
    super(Math.round(DEFER_MS * (0.75 + Math.random() * 0.5)));
    this.message = "The user's active-run cap is reached";
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
