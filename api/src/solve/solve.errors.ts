import { type IssueGone, OPEN_PULL_REQUEST_MESSAGE, REPOSITORY_ACCESS_LOST, UPGRADE_CODES } from "@fixloop/contract";
import { AppError } from "../http/errors";

/** What is refused for an issue whose repository left the user's list, by what was asked. */
const ACCESS_LOST_REFUSES = {
  solved: "it cannot be solved",
  refined: "its solution cannot be refined",
  approved: "its pull request cannot be opened",
  pushed: "no revision can be pushed to its pull request",
} as const;

/** Errors of the solve feature; messages are the spec's where it has one. */
export const solveErrors = {
  issueNotFound: () => new AppError(404, "issue.not_found", "Issue not found"),
  issueClosed: () => new AppError(409, "issue.closed", "This issue is closed; reopen it to generate a solution"),
  issueGone: (reason: IssueGone, movedTo: string | null) =>
    reason === "deleted"
      ? new AppError(410, "issue.deleted", "This issue was deleted on GitHub, so it cannot be solved")
      : new AppError(
          410,
          "issue.transferred",
          `This issue was transferred to another repository on GitHub${movedTo ? ` (${movedTo})` : ""}; import it from there to solve it`,
        ),
  // The code a run stopped for the same reason ends with; 403: GitHub no longer lets the user at it.
  repositoryAccessLost: (refused: keyof typeof ACCESS_LOST_REFUSES = "solved") =>
    new AppError(
      403,
      REPOSITORY_ACCESS_LOST.code,
      `You no longer have access to this issue's repository on GitHub, so ${ACCESS_LOST_REFUSES[refused]}`,
    ),
  pullRequestOpen: () => new AppError(409, "issue.pull_request_open", OPEN_PULL_REQUEST_MESSAGE),
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
