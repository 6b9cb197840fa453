import type { Job } from "bullmq";
import { QUEUES, type JobResult, type QueueName } from "@fixloop/contract";
import type { WorkerContext } from "../context";
import { processSolve } from "./solve.processor";
import { processSync } from "./sync.processor";
import { processFork } from "./fork.processor";
import { processPullRequest } from "./pull-request.processor";
import { processSyntaxCheck } from "./syntax-check.processor";
import { processTestsRerun } from "./tests-rerun.processor";
import { processBacktest } from "./backtest.processor";

/** A processor is a plain async function of the job, the context and an AbortSignal; it returns its queue's result. */
export type Processor<Q extends QueueName = QueueName> = (
  job: Job,
  ctx: WorkerContext,
  signal: AbortSignal,
  /** The worker's lock token on the job (for moving it back to delayed). */
  token?: string,
) => Promise<JobResult<Q>>;

export const PROCESSORS: { [Q in QueueName]: Processor<Q> } = {
  [QUEUES.solve]: processSolve,
  [QUEUES.sync]: processSync,
  [QUEUES.fork]: processFork,
  [QUEUES.pullRequest]: processPullRequest,
  [QUEUES.syntaxCheck]: processSyntaxCheck,
  [QUEUES.testsRerun]: processTestsRerun,
  [QUEUES.backtest]: processBacktest,
};
