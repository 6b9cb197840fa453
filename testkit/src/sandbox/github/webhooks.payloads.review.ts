import { authorAssociation } from "./issues.payloads";
import { pullSimple } from "./pulls.payloads";
import type { RepoRecord } from "./state";
import { nodeId } from "./urls";
import type { ReviewRecord } from "./webhooks.records";
import type { HookShapes, PullIssue } from "./webhooks.shapes";

/** `pull_request_review` `submitted` deliveries. */
export function reviewPayloads({ store, urls, user, repo, org, hookPull, pullUrl, htmlPull }: HookShapes) {
  return {
    review(r: RepoRecord, pr: PullIssue, rv: ReviewRecord) {
      const html = `${htmlPull(r, pr)}#pullrequestreview-${rv.id}`;
      return {
        action: "submitted",
        review: {
          id: rv.id,
          node_id: nodeId("PullRequestReview", rv.id),
          user: user(rv.user),
          body: rv.body || null,
          commit_id: rv.commitId,
          submitted_at: rv.submittedAt,
          state: rv.state.toLowerCase(),
          html_url: html,
          pull_request_url: pullUrl(r, pr),
          author_association: authorAssociation(store, r, rv.user),
          _links: { html: { href: html }, pull_request: { href: pullUrl(r, pr) } },
        },
        pull_request: hookPull(pullSimple(pr, r, store, urls, null)),
        repository: repo(r),
        ...org(r),
        sender: user(rv.user),
      };
    },
  };
}
