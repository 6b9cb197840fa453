import { pullRequestEvents, pullRequests } from "@fixloop/db";
import type { GithubClient } from "@fixloop/runtime";
import type { WorkerContext } from "../context";
import { pollTimeline, recordClosed, TIMELINE_MAX_PAGES } from "./pull-request-timeline.sync";

type Row = Awaited<ReturnType<typeof pullRequests.listToSync>>[number];

/** What one read of a pull request found; any other GitHub failure is thrown to the caller. */
export type RefreshOutcome = "changed" | "unchanged" | "not-modified" | "gone";

/**
 * Reads one pull request again, conditional on its stored ETag (a 304 costs no rate limit), stores
 * its status, draft state and labels, and reads its reviews, review comments and check runs (also
 * conditional) for installations without a webhook. Used by the user's sync and the timed poll.
 */
export async function refreshPullRequest(gh: GithubClient, ctx: WorkerContext, row: Row): Promise<RefreshOutcome> {
  const [owner = "", repo = ""] = row.repo_full_name.split("/");
  // The timeline is extra: a failed read of it leaves the status standing (logged, tried next time).
  const timeline = async (headSha: string | null) => {
    try {
      const read = await pollTimeline(
        gh,
        ctx.db,
        { id: row.id, owner, repo, number: row.pr_number, headSha },
        ctx.logger,
      );
      if (read.unread.length > 0)
        ctx.logger.warn(
          { pullRequestId: row.id, lists: read.unread, maxPages: TIMELINE_MAX_PAGES },
          "pull request timeline longer than the pages read: the rest is left unread",
        );
    } catch (err) {
      ctx.logger.warn(
        { pullRequestId: row.id, status: (err as { status?: number }).status },
        "pull request timeline not read",
      );
    }
  };
  try {
    const res = await gh.rest.pulls.get({
      owner,
      repo,
      pull_number: row.pr_number,
      headers: row.etag ? { "if-none-match": row.etag } : {},
    });
    const pr = res.data;
    const status = pr.merged_at || pr.merged ? "merged" : pr.state === "closed" ? "closed" : "open";
    await pullRequests.refresh(ctx.db, row, {
      status,
      githubUpdatedAt: pullRequestEvents.githubTime(pr.updated_at),
      title: pr.title,
      etag: res.headers.etag ?? null,
      metadata: { ...row.metadata, labels: pr.labels.map((l) => l.name), draft: pr.draft === true },
      // GitHub answers a read under a former name with the current ones. A deleted fork has no
      // head repository: its name stays as stored.
      repositories: [pr.base.repo, ...(pr.head.repo ? [pr.head.repo] : [])].map((r) => ({
        githubId: r.id,
        fullName: r.full_name,
      })),
    });
    if (status !== "open" && status !== row.status) await recordClosed(ctx.db, row.id, pr, status);
    await timeline(pr.head.sha);
    return status !== row.status || (pr.draft === true) !== (row.metadata.draft === true) ? "changed" : "unchanged";
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (status === 304) {
      await pullRequests.markUnchanged(ctx.db, row.id);
      await timeline(null);
      return "not-modified";
    }
    // A deleted repository or pull request leaves the stored one as it was last seen.
    if (status === 404) return "gone";
    throw err;
  }
}
