import { isClosedTab } from "@fixloop/contract";
import type { Issue, IssueStatus } from "../../api/types";
import type { Tone } from "../../ui/ui";

export const STATUS_LABEL: Record<IssueStatus, string> = {
  pending: "open",
  open: "open",
  analyzing: "analyzing",
  solved: "solved",
  pr_created: "PR Created",
  failed: "failed",
  closed: "closed",
};

/** Issues-list badge colours (spec §4). */
export const ISSUE_TONE: Record<IssueStatus, Tone> = {
  pr_created: "purple",
  solved: "blue",
  analyzing: "yellow",
  failed: "red",
  open: "green",
  pending: "green",
  closed: "gray",
};

/** Dashboard badge colours: PR green, solved blue, closed gray, everything else orange. */
export function dashboardTone(s: IssueStatus): Tone {
  if (s === "pr_created") return "green";
  if (s === "solved") return "blue";
  if (s === "closed") return "gray";
  return "orange";
}

/**
 * The Issues page's Open tab: the spec's open statuses, plus an issue whose solution waits for the
 * user's review (it is "solved", but nothing has been decided yet: the user still has work there).
 */
export function inOpenTab(issue: Pick<Issue, "status" | "awaitingReview">): boolean {
  return issue.awaitingReview !== null || !isClosedTab(issue.status);
}

/** An issue GitHub deleted or transferred elsewhere is closed; its badge says why. */
const GONE_LABEL: Record<NonNullable<Issue["gone"]>, string> = {
  deleted: "deleted on GitHub",
  transferred: "transferred",
};

/** The badge of an issue on the lists: an awaiting review says so instead of "solved". */
export function issueBadge(issue: Pick<Issue, "status" | "awaitingReview" | "gone">): { label: string; tone: Tone } {
  if (issue.gone) return { label: GONE_LABEL[issue.gone], tone: ISSUE_TONE.closed };
  if (issue.awaitingReview && issue.status === "solved") return { label: "Awaiting review", tone: "orange" };
  return { label: STATUS_LABEL[issue.status], tone: ISSUE_TONE[issue.status] };
}

/** The dashboard's badge: its own colours, and "Awaiting review" as on the Issues page. */
export function dashboardBadge(issue: Pick<Issue, "status" | "awaitingReview" | "gone">): {
  label: string;
  tone: Tone;
} {
  if (issue.gone) return { label: GONE_LABEL[issue.gone], tone: dashboardTone("closed") };
  if (issue.awaitingReview && issue.status === "solved") return { label: "Awaiting review", tone: "orange" };
  return { label: STATUS_LABEL[issue.status], tone: dashboardTone(issue.status) };
}
