import { reviewAddressing, type Claim, type Db } from "@fixloop/db";
import type { GithubClient } from "@fixloop/runtime";

/**
 * Replies on each review thread the pushed revision addresses, with a short note linking the
 * commit, and marks it answered (a retried job skips those already answered). A comment deleted
 * on GitHub meanwhile (404) is marked answered without a reply. Marked under the push's claim: once
 * another worker took the job, ClaimLost stops the replies.
 */
export async function replyOnThreads(
  db: Db,
  claim: Claim,
  gh: GithubClient,
  pr: { owner: string; repo: string; pullRequestId: string; number: number },
  push: { commitSha: string; commitUrl: string; revision: number; solutionId: string },
): Promise<number> {
  // Only the comments the pushed revision's refinement was asked to address (or earlier ones).
  const threads = await reviewAddressing.awaitingReply(db, pr.pullRequestId, push);
  let replied = 0;
  for (const t of threads) {
    const commentId = Number(t.source_id);
    if (Number.isSafeInteger(commentId)) {
      try {
        await gh.rest.pulls.createReplyForReviewComment({
          owner: pr.owner,
          repo: pr.repo,
          pull_number: pr.number,
          comment_id: commentId,
          body: `Addressed in [${push.commitSha.slice(0, 7)}](${push.commitUrl}) (revision ${push.revision} of the Fixloop solution, reviewed and approved before the push).`,
        });
        replied++;
      } catch (err) {
        if ((err as { status?: number }).status !== 404) throw err;
      }
    }
    await reviewAddressing.markAddressed(db, claim, pr.pullRequestId, t.source_id, push.commitSha);
  }
  return replied;
}
