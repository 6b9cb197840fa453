/**
 * The run events as the browser receives them: the wire schema and the types it is read with.
 * Only zod, diff and db/domain behind it, so the web app can bundle it. The diff counts are here
 * so the diff view counts lines as the pull request body does.
 */
export {
  RUN_EVENT_TYPES,
  RunEvent,
  RunView,
  StepEvent,
  StepCost,
  StepDetail,
  StepId,
  StepStatus,
  StepSymbol,
  StepRerank,
  ErrorBody,
} from "./pipeline";
export { TestsEvent, TestsPhase, LiveTestCounts, SolutionTests, testsVerdict, type TestsVerdict } from "./tests";
export { countDiffParts, diffCounts, partLines, type DiffCounts } from "./change/diff-counts";
