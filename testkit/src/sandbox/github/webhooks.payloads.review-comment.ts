import { authorAssociation, reactions } from "./issues.payloads";
import { pullSimple } from "./pulls.payloads";
import type { RepoRecord } from "./state";
import { nodeId } from "./urls";
import type { ReviewCommentRecord } from "./webhooks.records";
import type { HookShapes, PullIssue } from "./webhooks.shapes";

/** `pull_request_review_comment` `created` deliveries. */
export function reviewCommentPayloads({ store, urls, user, repo, org, hookPull, pullUrl, htmlPull }: HookShapes) {
  return {
    reviewComment(r: RepoRecord, pr: PullIssue, c: ReviewCommentRecord, sender: string) {
      const url = `${urls.api}/repos/${r.owner}/${r.name}/pulls/comments/${c.id}`;
      const html = `${htmlPull(r, pr)}#discussion_r${c.id}`;
      return {
        action: "created",
        comment: {
          url,
          pull_request_review_id: c.reviewId,
          id: c.id,
          node_id: nodeId("PullRequestReviewComment", c.id),
          diff_hunk: `@@ -${c.line},1 +${c.line},1 @@`,
          path: c.path,
          position: 1,
          original_position: 1,
          commit_id: c.commitId,
          original_commit_id: c.commitId,
          user: user(c.user),
          body: c.body,
          created_at: c.createdAt,
          updated_at: c.createdAt,
          html_url: html,
          pull_request_url: pullUrl(r, pr),
          author_association: authorAssociation(store, r, c.user),
          _links: { self: { href: url }, html: { href: html }, pull_request: { href: pullUrl(r, pr) } },
          start_line: null,
          original_start_line: null,
          original_line: c.line,
          line: c.line,
          start_side: null,
          side: c.side,
          reactions: reactions(url),
          ...(c.inReplyTo !== undefined ? { in_reply_to_id: c.inReplyTo } : {}),
        },
        pull_request: hookPull(pullSimple(pr, r, store, urls, null)),
        repository: repo(r),
        ...org(r),
        sender: user(sender),
      };
    },
  };
}
