/**
 * The run events as the browser receives them: the wire schema and the types it is read with.
 * Only zod and db/domain behind it, so the web app can bundle it.
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
