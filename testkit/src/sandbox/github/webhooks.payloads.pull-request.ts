import { pullFull, type PullStats } from "./pulls.payloads";
import type { RepoRecord } from "./state";
import type { HookShapes, PullIssue } from "./webhooks.shapes";

/** `pull_request` deliveries: closed or reopened, synchronize. */
export function pullRequestPayloads({ store, urls, user, repo, org, hookPull }: HookShapes) {
  return {
    closed(r: RepoRecord, pr: PullIssue, stats: PullStats, sender: string, action: "closed" | "reopened" = "closed") {
      return {
        action,
        number: pr.number,
        pull_request: hookPull(pullFull(pr, r, store, urls, null, stats)),
        repository: repo(r),
        ...org(r),
        sender: user(sender),
      };
    },
    synchronize(r: RepoRecord, pr: PullIssue, stats: PullStats, before: string, after: string, sender: string) {
      return {
        action: "synchronize",
        number: pr.number,
        before,
        after,
        pull_request: hookPull(pullFull(pr, r, store, urls, null, stats)),
        repository: repo(r),
        ...org(r),
        sender: user(sender),
      };
    },
  };
}
