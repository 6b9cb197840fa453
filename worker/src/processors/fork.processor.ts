import type { Job } from "bullmq";
import { ForkJob, type ImportResult } from "@fixloop/contract";
import type { WorkerContext } from "../context";
import { importIssue } from "../fork/fork.service";

/** Import of a public issue: fork (once), wait for it, store the issue. */
export async function processFork(job: Job, ctx: WorkerContext, signal: AbortSignal): Promise<ImportResult> {
  return importIssue(ForkJob.parse(job.data), ctx, signal);
}
