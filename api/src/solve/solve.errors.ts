import { UPGRADE_CODES } from "@fixloop/contract";
import { AppError } from "../http/errors";

/**
 * Errors of the solve feature; messages are the spec's where it has one. What the issue's standing
 * refuses (gone, repository left, closed, a pull request open) is the contract's `ACTIONS` table.
 */
export const solveErrors = {
  issueNotFound: () => new AppError(404, "issue.not_found", "Issue not found"),
  unknownModel: (id: string) => new AppError(400, "model.unknown", `Unknown model: ${id}`),
  premiumRequired: () => new AppError(403, UPGRADE_CODES.model_access, "Premium subscription required"),
  // 429: the request is well-formed and allowed, the caller has simply used up this period's quota.
  usageLimit: () => new AppError(429, UPGRADE_CODES.usage_limit, "Usage limit exceeded"),
  runNotFound: () => new AppError(404, "run.not_found", "Run not found"),
  runFinished: (status: string) =>
    new AppError(
      409,
      "run.finished",
      `The run has already ${status === "completed" ? "completed" : status === "failed" ? "failed" : "been cancelled"}`,
    ),
  runFailed: (code: string, message: string) => new AppError(502, code, message),
  notResumable: () => new AppError(409, "run.not_resumable", "Only a run stopped by a spending cap can be resumed"),
  refineSuperseded: (reason: string) =>
    new AppError(409, "refine.superseded", `Not resumed: ${reason}; refine the solution as it is now instead`),
  // 409: a second solution of the issue while one waits for review is asked for explicitly (`solveAgain`).
  awaitingReview: (solutionId: string) =>
    new AppError(
      409,
      "solve.awaiting_review",
      `A solution for this issue awaits your review (solution ${solutionId}): open it, or solve again with solveAgain: true`,
    ),
  issueBusy: () => new AppError(409, "run.issue_busy", "Another run of this issue is in progress"),
  stillCancelling: () => new AppError(409, "run.cancelling", "The previous run is still cancelling, try in a moment"),
  runCancelled: () => new AppError(409, "run.cancelled", "The run was cancelled"),
};
