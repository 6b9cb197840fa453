import { randomUUID } from "node:crypto";
import { pullRequests } from "@fixloop/db";
import { PR_POLL_SCHEDULER } from "@fixloop/contract";
import { githubForUser, toGithubError, type GithubClient } from "@fixloop/runtime";
import type { WorkerContext } from "../context";
import { refreshPullRequest } from "./pull-request.refresh";

/** A repository that delivered a webhook within this window is left to its webhooks. */
export const WEBHOOK_QUIET_SECONDS = 3600;
/** A tick's lock outlives any tick (its reads are bounded); a crashed worker's lock just expires. */
const LOCK_SECONDS = 600;

/**
 * Declares (or, at 0, removes) the job scheduler of the timed poll. Every worker serving the sync
 * queue calls it at start; upserting the same scheduler is idempotent, and BullMQ makes one job
 * per tick however many workers there are.
 */
export async function schedulePullRequestPoll(ctx: WorkerContext): Promise<boolean> {
  const seconds = ctx.env.PR_POLL_INTERVAL_SECONDS;
  if (seconds === 0) {
    await ctx.queues.sync.removeJobScheduler(PR_POLL_SCHEDULER);
    return false;
  }
  await ctx.queues.sync.upsertJobScheduler(
    PR_POLL_SCHEDULER,
    { every: seconds * 1000 },
    { name: PR_POLL_SCHEDULER, data: { kind: "poll-pull-requests" }, opts: { attempts: 1 } },
  );
  return true;
}

/**
 * GitHub refused the user's token (revoked, or rate limited): their other pull requests wait for a
 * later tick. A 403 that is no rate limit (access to that repository lost, an organization's OAuth
 * App restrictions), a 404 or an outage concerns only that pull request: the user's others are read.
 */
const refusesUser = (err: unknown) => {
  const code = toGithubError(err, "Pull request").code;
  return code === "github.unauthorized" || code === "github.rate_limited";
};

/**
 * One tick: reads the least recently read open pull requests (at most PR_POLL_MAX_PER_TICK) of
 * repositories without a recent webhook, each with its owner's token, conditional on its ETags.
 * A Redis lock keeps a second tick (a late one, or one added by hand) from running alongside;
 * every read is idempotent anyway (one timeline row per GitHub object).
 */
export async function pollPullRequests(
  ctx: WorkerContext,
  signal: AbortSignal,
): Promise<{ count: number; changed: number; notModified: number }> {
  const lockKey = `${ctx.queues.prefix}:pr-poll-lock`;
  const token = randomUUID();
  if ((await ctx.redis.set(lockKey, token, "EX", LOCK_SECONDS, "NX")) !== "OK")
    return { count: 0, changed: 0, notModified: 0 };
  try {
    const rows = await pullRequests.listToPoll(ctx.db, {
      limit: ctx.env.PR_POLL_MAX_PER_TICK,
      quietSeconds: WEBHOOK_QUIET_SECONDS,
    });
    const clients = new Map<string, GithubClient | null>();
    let changed = 0;
    let notModified = 0;
    for (const row of rows) {
      if (signal.aborted) break;
      if (!clients.has(row.user_id))
        clients.set(
          row.user_id,
          await githubForUser(ctx, row.user_id).then(
            (g) => g.client,
            () => null,
          ),
        );
      const gh = clients.get(row.user_id);
      if (!gh) continue;
      try {
        const outcome = await refreshPullRequest(gh, ctx, row);
        if (outcome === "changed") changed++;
        if (outcome === "not-modified") notModified++;
        if (outcome === "gone") await pullRequests.markUnchanged(ctx.db, row.id);
      } catch (err) {
        const status = (err as { status?: number }).status;
        ctx.logger.warn({ pullRequestId: row.id, status }, "timed poll: pull request not read");
        if (refusesUser(err)) clients.set(row.user_id, null);
        // Read again after the others, not first on every tick.
        await pullRequests.markUnchanged(ctx.db, row.id);
      }
    }
    return { count: rows.length, changed, notModified };
  } finally {
    if ((await ctx.redis.get(lockKey)) === token) await ctx.redis.del(lockKey);
  }
}
