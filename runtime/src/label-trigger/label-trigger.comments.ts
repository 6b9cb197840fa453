/** The issue comments the label trigger leaves (no issue text is quoted back: it is untrusted). */
export const labelTriggerComments = {
  started: (label: string, runUrl: string) =>
    [
      `Fixloop started solving this issue because it carries the \`${label}\` label.`,
      "",
      `Follow the run live: ${runUrl}`,
      "",
      "No pull request is opened until a person reviews the proposed fix and approves it.",
    ].join("\n"),
  overQuota: (label: string) =>
    [
      `Fixloop did not start solving this issue (labelled \`${label}\`): the monthly quota of solve runs of the`,
      "account that enabled the label is used up. Start the run from Fixloop once the quota renews, or upgrade the plan.",
    ].join(" "),
};

/** Where a run is watched live. */
export const runPageUrl = (publicUrl: string, issueId: string, runId: string) =>
  `${publicUrl.replace(/\/+$/, "")}/issues/${issueId}/solve?run=${runId}`;
