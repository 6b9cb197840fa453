import { pullRequests } from "@fixloop/db";
import type { SyncJob } from "@fixloop/contract";
import type { WorkerContext } from "../context";
import { githubForUser, jobFailed, toGithubError } from "@fixloop/runtime";
import { refreshPullRequest } from "./pull-request.refresh";

/**
 * Refreshes the status (open, closed, merged), draft state and labels of the user's pull requests. Each read
 * is conditional on the stored ETag, so unchanged pull requests cost a 304 and no rate limit.
 * Merged is final and not read again. The reviews, review comments and check runs of each pull
 * request are read too (also conditional), for installations without a webhook.
 *
 * A pull request GitHub refuses to show this user (403 that is no rate limit: access lost, an
 * organization's OAuth App restrictions; or 404) is skipped, logged and counted, and the others are
 * read. A rate limit, a refused token or an outage stops the sync: every other read would meet it too.
 */
export async function syncPullRequests(
  job: Extract<SyncJob, { kind: "pull-requests" }>,
  ctx: WorkerContext,
  signal: AbortSignal,
): Promise<{ count: number; changed: number; notModified: number; skipped: number }> {
  const rows = await pullRequests.listToSync(ctx.db, job.userId);
  if (rows.length === 0) return { count: 0, changed: 0, notModified: 0, skipped: 0 };
  const { client: gh } = await githubForUser(ctx, job.userId);
  let changed = 0;
  let notModified = 0;
  let skipped = 0;
  for (const row of rows) {
    if (signal.aborted) break;
    try {
      const outcome = await refreshPullRequest(gh, ctx, row);
      if (outcome === "changed") changed++;
      if (outcome === "not-modified") notModified++;
    } catch (err) {
      const failure = toGithubError(err, "Pull request");
      if (failure.code === "github.forbidden" || failure.code === "github.not_found") {
        skipped++;
        ctx.logger.warn(
          {
            userId: job.userId,
            pullRequestId: row.id,
            repo: row.repo_full_name,
            number: row.pr_number,
            status: failure.status,
            code: failure.code,
          },
          "pull request sync: GitHub refused this pull request, skipped (the others are read)",
        );
        continue;
      }
      throw jobFailed({ code: failure.code, message: failure.message, retryable: true }, { cause: err });
    }
  }
  return { count: rows.length, changed, notModified, skipped };
}
