import { z } from "zod";

export const ISSUE_STATUSES = ["pending", "open", "analyzing", "solved", "pr_created", "failed", "closed"] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];

/** The Issues page's Closed tab holds these; everything else is Open. */
export const CLOSED_TAB_STATUSES: readonly IssueStatus[] = ["solved", "pr_created", "failed", "closed"];

export function isClosedTab(status: IssueStatus): boolean {
  return CLOSED_TAB_STATUSES.includes(status);
}

/** Why GitHub no longer has an issue where Fixloop found it (the issue is then kept closed). */
export const ISSUE_GONE_REASONS = ["deleted", "transferred"] as const;
export type IssueGone = (typeof ISSUE_GONE_REASONS)[number];

export const SOLUTION_STATUSES = ["pending", "approved", "rejected", "pr_created", "deleted"] as const;
export type SolutionStatus = (typeof SOLUTION_STATUSES)[number];
/** A solution still answering its issue (not rejected, deleted, or turned into a pull request yet). */
export const ANSWERING_SOLUTION_STATUSES = ["pending", "approved"] as const satisfies readonly SolutionStatus[];

/** What a reviewer decides on a pending solution. */
export const DECIDED_SOLUTION_STATUSES = ["approved", "rejected"] as const satisfies readonly SolutionStatus[];
export type DecidedSolutionStatus = (typeof DECIDED_SOLUTION_STATUSES)[number];

export const PULL_REQUEST_STATUSES = ["open", "closed", "merged"] as const;
export type PullRequestStatus = (typeof PULL_REQUEST_STATUSES)[number];

/** A solve or refine run's states; the last three are terminal (nothing changes a run after them). */
export const RUN_STATUSES = ["queued", "running", "completed", "failed", "cancelled"] as const;
export const RunStatus = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatus>;
/** A run in these states still has work to do (a sweeper re-enqueues it after a crash). */
export const ACTIVE_RUN_STATUSES = ["queued", "running"] as const satisfies readonly RunStatus[];
export const TERMINAL_RUN_STATUSES = ["completed", "failed", "cancelled"] as const satisfies readonly RunStatus[];
export type TerminalRunStatus = (typeof TERMINAL_RUN_STATUSES)[number];

export function isTerminalRunStatus(status: string): status is TerminalRunStatus {
  return (TERMINAL_RUN_STATUSES as readonly string[]).includes(status);
}

/** The five solve steps, in order (steps.ts declares what each reads and returns). */
export const STEP_IDS = ["analyzing", "context", "dependencies", "generating", "validating"] as const;
export const StepId = z.enum(STEP_IDS);
export type StepId = z.infer<typeof StepId>;
export const STEP_STATUSES = ["pending", "running", "completed", "failed", "skipped"] as const;
export const StepStatus = z.enum(STEP_STATUSES);
export type StepStatus = z.infer<typeof StepStatus>;

/** The warning a step that was running when its run was cancelled ends with (the step is stored as failed). */
export const STEP_CANCELLED = "Cancelled";

/** Why a new solve or approval is refused while the issue has an open pull request. */
export const OPEN_PULL_REQUEST_MESSAGE = "A pull request is open for this issue: update it or close it first";
