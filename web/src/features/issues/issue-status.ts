import type { IssueStatus } from "../../api/types";
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
