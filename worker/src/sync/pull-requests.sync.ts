import { pullRequests } from "@fixloop/db";
import type { SyncJob } from "@fixloop/contract";
import type { WorkerContext } from "../context";
import { githubForUser, jobFailed, toGithubError } from "@fixloop/runtime";
import { pollTimeline, recordClosed } from "./pull-request-timeline.sync";

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
  // The timeline is extra: a failed read of it leaves the status sync standing (logged, tried next sync).
  const timeline = async (id: string, target: Parameters<typeof pollTimeline>[2]) => {
    try {
      await pollTimeline(gh, ctx.db, target);
    } catch (err) {
      ctx.logger.warn(
        { pullRequestId: id, status: (err as { status?: number }).status },
        "pull request timeline not read",
      );
    }
  };
  let changed = 0;
  let notModified = 0;
  for (const row of rows) {
    if (signal.aborted) break;
    const [owner = "", repo = ""] = row.repo_full_name.split("/");
    try {
      const res = await gh.rest.pulls.get({
        owner,
        repo,
        pull_number: row.pr_number,
        headers: row.etag ? { "if-none-match": row.etag } : {},
      });
      const pr = res.data;
      const status = pr.merged_at || pr.merged ? "merged" : pr.state === "closed" ? "closed" : "open";
      await pullRequests.refresh(ctx.db, row.id, {
        status,
        title: pr.title,
        etag: res.headers.etag ?? null,
        metadata: { ...row.metadata, labels: pr.labels.map((l) => l.name), draft: pr.draft === true },
      });
      if (status !== row.status || (pr.draft === true) !== (row.metadata.draft === true)) changed++;
      if (status !== "open" && status !== row.status) await recordClosed(ctx.db, row.id, pr, status);
      await timeline(row.id, { id: row.id, owner, repo, number: row.pr_number, headSha: pr.head.sha });
    } catch (err) {
      const status = (err as { status?: number }).status;
      if (status === 304) {
        notModified++;
        await pullRequests.markUnchanged(ctx.db, row.id);
        await timeline(row.id, { id: row.id, owner, repo, number: row.pr_number, headSha: null });
        continue;
      }
      // A deleted repository or pull request leaves the stored one as it was last seen.
      if (status === 404) continue;
      const failure = toGithubError(err, "Pull request");
      throw jobFailed({ code: failure.code, message: failure.message, retryable: true }, { cause: err });
    }
  }
  return { count: rows.length, changed, notModified };
}
