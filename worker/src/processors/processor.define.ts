import { randomUUID } from "node:crypto";
import { DelayedError, type Job } from "bullmq";
import { ClaimLost } from "@fixloop/db";
import type { JobResult, QueueName } from "@fixloop/contract";
import type { WorkerContext } from "../context";
import { JOB_LOCK_LOST, JobLockLost } from "../job.lock";

/** What a processor's body runs with: its job, the context, the signal it stops on and this attempt's claim token. */
export interface ProcessorInput {
  job: Job;
  ctx: WorkerContext;
  /** Aborted by a cancel, a shutdown, or (after onLockLost gave the claim up) the loss of the job's lock. */
  signal: AbortSignal;
  /** A fresh token for this attempt: written on the job's row when the body claims it, so only its writes land. */
  claim: string;
}

/** Thrown by a body whose job must wait (its user is at their cap): the job goes back to the delayed set, still queued. */
export class JobDeferred extends Error {
  constructor(readonly delayMs: number) {
    super("The job waits its turn");
    this.name = "JobDeferred";
  }
}

export interface ProcessorDefinition<Q extends QueueName> {
  name: Q;
  /** The job's work, as a log line names it ("run <id>"). */
  what(job: Job): string;
  run(p: ProcessorInput): Promise<JobResult<Q>>;
  /**
   * This worker could not renew the job's lock (another may hold it now): gives the claim up in
   * the database before the body's signal is aborted, so whatever the body writes while it stops
   * lands nowhere.
   */
  onLockLost?(p: ProcessorInput): Promise<void>;
  /** After the body ended (not when the lock was lost: the job is the new holder's then). */
  after?(p: ProcessorInput): Promise<void>;
}

/** A processor is a plain async function of the job, the context and an AbortSignal; it returns its queue's result. */
export type Processor<Q extends QueueName = QueueName> = (
  job: Job,
  ctx: WorkerContext,
  signal: AbortSignal,
  /** The worker's lock token on the job (for moving it back to delayed). */
  token?: string,
) => Promise<JobResult<Q>>;

/**
 * One owner of what every processor shares: the abort signal (a lock loss first gives up the
 * job's claim, then aborts), deferral (moveToDelayed with the worker's lock token) and lock loss
 * (ClaimLost from a fenced write, or the signal's reason: logged once, thrown as JobLockLost).
 */
export function defineProcessor<Q extends QueueName>(def: ProcessorDefinition<Q>): Processor<Q> {
  return async (job, ctx, outer, token) => {
    const own = new AbortController();
    const p: ProcessorInput = { job, ctx, signal: own.signal, claim: randomUUID() };
    const follow = () => {
      if (outer.reason !== JOB_LOCK_LOST || !def.onLockLost) return own.abort(outer.reason);
      def
        .onLockLost(p)
        .catch((err: Error) =>
          ctx.logger.warn({ jobId: job.id, err: err.message }, "could not give the job's claim up"),
        )
        .finally(() => own.abort(JOB_LOCK_LOST));
    };
    if (outer.aborted) follow();
    else outer.addEventListener("abort", follow, { once: true });
    let lost = false;
    try {
      return await def.run(p);
    } catch (err) {
      if (err instanceof JobDeferred) {
        await job.moveToDelayed(Date.now() + err.delayMs, token);
        throw new DelayedError();
      }
      if (err instanceof ClaimLost || outer.reason === JOB_LOCK_LOST) {
        lost = true;
        const what = def.what(job);
        const e = err instanceof JobLockLost ? err : new JobLockLost(what);
        ctx.logger.warn(
          { queue: def.name, jobId: job.id, code: e.code },
          `lost the job's lock: ${what} was stopped here and left to its new worker`,
        );
        throw e;
      }
      throw err;
    } finally {
      outer.removeEventListener("abort", follow);
      if (!lost) await def.after?.(p);
    }
  };
}
