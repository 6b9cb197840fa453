import { QUEUES, type QueueName } from "@fixloop/contract";
import type { Processor } from "./processor.define";
import { processSolve } from "./solve.processor";
import { processSync } from "./sync.processor";
import { processFork } from "./fork.processor";
import { processPullRequest } from "./pull-request.processor";
import { processSyntaxCheck } from "./syntax-check.processor";
import { processTestsRerun } from "./tests-rerun.processor";
import { processBacktest } from "./backtest.processor";

export type { Processor } from "./processor.define";

export const PROCESSORS: { [Q in QueueName]: Processor<Q> } = {
  [QUEUES.solve]: processSolve,
  [QUEUES.sync]: processSync,
  [QUEUES.fork]: processFork,
  [QUEUES.pullRequest]: processPullRequest,
  [QUEUES.syntaxCheck]: processSyntaxCheck,
  [QUEUES.testsRerun]: processTestsRerun,
  [QUEUES.backtest]: processBacktest,
};
