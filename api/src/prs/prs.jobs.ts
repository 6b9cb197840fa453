import type { Job } from "bullmq";
import type { QueueName, Queues } from "@fixloop/worker/contract";
import { parseJobFailure } from "@fixloop/worker/contract";
import { AppError } from "../http/errors";

export type JobOutcome<T> = { state: "completed"; value: T } | { state: "failed"; reason: string } | { state: "pending" };

/** Waits for a job at most `seconds`; the caller answers 202 with the job id when it is still running. */
export async function waitForJob<T>(queues: Queues, name: QueueName, job: Job, seconds: number): Promise<JobOutcome<T>> {
  if (seconds <= 0) return { state: "pending" };
  const events = queues.events(name);
  await events.waitUntilReady();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<JobOutcome<T>>((resolve) => {
    timer = setTimeout(() => resolve({ state: "pending" }), seconds * 1000);
  });
  const finished = job.waitUntilFinished(events).then(
    (value: T): JobOutcome<T> => ({ state: "completed", value }),
    (err: Error): JobOutcome<T> => ({ state: "failed", reason: err.message }),
  );
  try {
    return await Promise.race([finished, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A failed job as an API error, keeping the job's own `code: message` when it has one. */
export function jobFailedError(reason: string, fallbackCode: string): AppError {
  const parsed = parseJobFailure(reason);
  if (!parsed) return new AppError(502, fallbackCode, reason || "The job failed");
  const status = /conflict/.test(parsed.code) ? 409 : /denied|too_large|blocked|invalid/.test(parsed.code) ? 422 : 502;
  return new AppError(status, parsed.code, parsed.message);
}
