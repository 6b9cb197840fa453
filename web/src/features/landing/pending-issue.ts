/** An issue URL pasted on the landing page before sign-in; the Contribute page picks it up. */
export const PENDING_ISSUE_KEY = "pendingIssueUrl";
