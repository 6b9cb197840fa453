import { UnrecoverableError } from "bullmq";
import type { JobErrorCode, JobFailure } from "@fixloop/contract";

/** A failure retrying cannot fix: BullMQ fails the job at once. */
export class JobRefusedError extends UnrecoverableError {
  readonly code: JobErrorCode;
  constructor(readonly failure: Omit<JobFailure, "retryable">) {
    super(JSON.stringify({ ...failure, retryable: false }));
    this.name = "JobRefusedError";
    this.code = failure.code;
  }
}

/** A transient failure: BullMQ retries the job while attempts remain. */
export class JobRetryableError extends Error {
  constructor(
    readonly failure: Omit<JobFailure, "retryable">,
    options?: ErrorOptions,
  ) {
    super(JSON.stringify({ ...failure, retryable: true }), options);
    this.name = "JobRetryableError";
  }
}

/** The error a processor throws for `failure`. */
export function jobFailed(failure: JobFailure, options?: ErrorOptions): Error {
  const { retryable, ...rest } = failure;
  return retryable ? new JobRetryableError(rest, options) : new JobRefusedError(rest);
}
