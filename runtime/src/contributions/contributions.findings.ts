/** What checking a contribution finds: one shape for the policy, issue-state and setup-network checks. */
export type FindingCode =
  | "closed"
  | "locked"
  | "ai_refused"
  | "assigned"
  | "linked_pull_request"
  | "ai_disclosure_required"
  | "ai_draft_required"
  | "ai_policy_note"
  | "setup_network_requested";
/** blocking stops the import; warning needs an acknowledgement; note is shown only. */
export type FindingSeverity = "blocking" | "warning" | "note";

export interface Finding {
  code: FindingCode;
  severity: FindingSeverity;
  message: string;
  /** The rule a policy finding quotes. */
  source?: { path: string; sentence: string };
}
