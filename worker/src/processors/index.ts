import type { Job } from "bullmq";
import { QUEUES, type QueueName } from "../contract";
import type { WorkerContext } from "../context";
import { processSolve } from "./solve.processor";
import { processSync } from "./sync.processor";
import { processFork } from "./fork.processor";
import { processPullRequest } from "./pull-request.processor";
import { processSyntaxCheck } from "./syntax-check.processor";
import { processTestsRerun } from "./tests-rerun.processor";

/** A processor is a plain async function of the job, the context and an AbortSignal. */
export type Processor = (job: Job, ctx: WorkerContext, signal: AbortSignal) => Promise<unknown>;

export const PROCESSORS: Record<QueueName, Processor> = {
  [QUEUES.solve]: processSolve,
  [QUEUES.sync]: processSync,
  [QUEUES.fork]: processFork,
  [QUEUES.pullRequest]: processPullRequest,
  [QUEUES.syntaxCheck]: processSyntaxCheck,
  [QUEUES.testsRerun]: processTestsRerun,
};
