/**
 * The reason a job's signal is aborted with when this worker could not renew its BullMQ lock on
 * the job (for the queues runtime.ts lists in LOCK_LOSS_ABORTS): BullMQ hands a job whose lock
 * lapsed to another worker as stalled, so this one stops at once and writes nothing more for it
 * (it is neither cancelled nor failed; the other owns it).
 */
export const JOB_LOCK_LOST = "job.lock_lost";

/** Whether `signal` was aborted because the job's lock was lost (not by a cancel). */
export const lockLost = (signal: AbortSignal): boolean => signal.aborted && signal.reason === JOB_LOCK_LOST;

/** What a processor whose job's lock was lost ends with (see defineProcessor); `what` names the job's work ("run <id>"). */
export class JobLockLost extends Error {
  readonly code = JOB_LOCK_LOST;
  constructor(what: string) {
    super(`${JOB_LOCK_LOST}: ${what} was left to the worker that now holds its job`);
    this.name = "JobLockLost";
  }
}
