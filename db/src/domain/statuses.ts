export const ISSUE_STATUSES = ["pending", "open", "analyzing", "solved", "pr_created", "failed", "closed"] as const;
export type IssueStatus = (typeof ISSUE_STATUSES)[number];

/** The Issues page's Closed tab holds these; everything else is Open. */
export const CLOSED_TAB_STATUSES: readonly IssueStatus[] = ["solved", "pr_created", "failed", "closed"];

export function isClosedTab(status: IssueStatus): boolean {
  return CLOSED_TAB_STATUSES.includes(status);
}
