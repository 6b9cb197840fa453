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
 */
export async function syncPullRequests(
  job: Extract<SyncJob, { kind: "pull-requests" }>,
  ctx: WorkerContext,
  signal: AbortSignal,
): Promise<{ count: number; changed: number; notModified: number }> {
  const rows = await pullRequests.listToSync(ctx.db, job.userId);
  if (rows.length === 0) return { count: 0, changed: 0, notModified: 0 };
  const { client: gh } = await githubForUser(ctx, job.userId);
  let changed = 0;
  let notModified = 0;
  for (const row of rows) {
    if (signal.aborted) break;
    try {
      const outcome = await refreshPullRequest(gh, ctx, row);
      if (outcome === "changed") changed++;
      if (outcome === "not-modified") notModified++;
    } catch (err) {
      const failure = toGithubError(err, "Pull request");
      throw jobFailed({ code: failure.code, message: failure.message, retryable: true }, { cause: err });
    }
  }
  return { count: rows.length, changed, notModified };
}
