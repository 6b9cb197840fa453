/**
 * The face of the API for the web app: `AppType` for the typed `hc` client, the shapes the
 * browser receives, and the pure domain rules (plans, bands, tabs) it renders with.
 */
export type { AppType } from "./app";
export type { RunEvent, StepDetail, StepId, StepStatus } from "@fixloop/worker/contract";
export {
  confidenceBand,
  FALLBACK_CONFIDENCE,
  isClosedTab,
  isPlanId,
  PLANS,
  RISK_DISPLAY_SCORE,
  scoreBand,
  USAGE_NOTIFY_RATIO,
  type Plan,
} from "@fixloop/db/domain";
