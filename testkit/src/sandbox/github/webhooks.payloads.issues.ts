import { label } from "./issues.payloads";
import type { IssueRecord, LabelRecord, RepoRecord } from "./state";
import type { HookShapes } from "./webhooks.shapes";

/** `issues` deliveries: a label added, an issue deleted or transferred. */
export function issuesPayloads({ urls, user, repo, org, hookIssue }: HookShapes) {
  return {
    /** `issues` `labeled`: one label added to an issue (each label of a request is its own delivery, as on GitHub). */
    labeled(r: RepoRecord, i: IssueRecord, l: LabelRecord, sender: string) {
      return {
        action: "labeled",
        issue: hookIssue(r, i),
        label: label(l, r, urls),
        repository: repo(r),
        ...org(r),
        sender: user(sender),
      };
    },
    /** `issues` `deleted`: the issue as it was just before. */
    issueDeleted(r: RepoRecord, i: IssueRecord, sender: string) {
      return { action: "deleted", issue: hookIssue(r, i), repository: repo(r), ...org(r), sender: user(sender) };
    },
    /** `issues` `transferred`: the issue as it was, and as it now is in `to`. */
    issueTransferred(r: RepoRecord, before: IssueRecord, to: RepoRecord, after: IssueRecord, sender: string) {
      return {
        action: "transferred",
        changes: { new_issue: hookIssue(to, after), new_repository: repo(to) },
        issue: hookIssue(r, before),
        repository: repo(r),
        ...org(r),
        sender: user(sender),
      };
    },
  };
}
