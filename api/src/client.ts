/**
 * The face of the API for the web app: `AppType` for the typed `hc` client, the shapes the
 * browser receives, and the pure domain rules (plans, bands, tabs) it renders with.
 */
export type { AppType } from "./app";
export { UPGRADE_CODES } from "./solve/solve.errors";
/** The wire schemas of a run's event stream: the web parses every SSE message with them. */
export { RUN_EVENT_TYPES, RunEvent, RunView, testsVerdict } from "@fixloop/worker/contract/events";
export type { TestsVerdict } from "@fixloop/worker/contract/events";
/** Lines added and removed, counted as the pull request body counts them. */
export { countDiffParts, diffCounts, partLines, type DiffCounts } from "@fixloop/worker/contract/events";
export type {
  StepCost,
  StepDetail,
  StepEvent,
  StepId,
  StepRerank,
  StepStatus,
  StepSymbol,
} from "@fixloop/worker/contract/events";
export type { PromptRecord } from "@fixloop/worker/contract";
export type {
  LiveTestCounts,
  SolutionTests,
  TestCounts,
  TestsEvent,
  TestsPhase,
  TestsStatus,
  TestsSummary,
} from "@fixloop/worker/contract";
export {
  confidenceBand,
  FALLBACK_CONFIDENCE,
  isClosedTab,
  isPlanId,
  isTerminalRunStatus,
  PLANS,
  RISK_DISPLAY_SCORE,
  scoreBand,
  STEP_CANCELLED,
  USAGE_NOTIFY_RATIO,
  type Plan,
} from "@fixloop/db/domain";
