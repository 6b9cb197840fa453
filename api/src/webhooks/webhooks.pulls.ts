import { pullRequestEvents } from "@fixloop/db";
import { actionsJobId, checkOutputText, isFailingCheckState } from "@fixloop/contract";
import { applied, handler, ignored, type WebhookContext } from "./webhooks.handler";
import { CheckRunEvent, PullRequestEvent, PushEvent, ReviewCommentEvent, ReviewEvent } from "./webhooks.schemas";

const NOT_OURS = "not_a_fixloop_pull_request";
const empty = { actor: null, state: null, title: null, body: null, path: null, line: null, url: null };

async function ours(ctx: WebhookContext, repository: { id: number; full_name: string }, number: number) {
  const repo = repository.full_name;
  const pr = await pullRequestEvents.findPullRequest(ctx.db, repository.id, number);
  if (!pr)
    ctx.logger.debug({ deliveryId: ctx.deliveryId, repo, number }, "webhook for a pull request Fixloop did not open");
  return pr;
}

/** `pull_request_review_comment`: a comment on a line of the diff. */
export const onReviewComment = handler(ReviewCommentEvent, async (ctx, e) => {
  if (e.action !== "created" && e.action !== "edited") return ignored(`action_${e.action}`);
  const pr = await ours(ctx, e.repository, e.pull_request.number);
  if (!pr) return ignored(NOT_OURS);
  const c = e.comment;
  await pullRequestEvents.recordEvent(ctx.db, pr.id, {
    kind: "review_comment",
    sourceId: String(c.id),
    actor: c.user?.login ?? null,
    state: null,
    title: null,
    body: c.body,
    path: c.path ?? null,
    line: c.line ?? c.original_line ?? null,
    url: c.html_url ?? null,
    occurredAt: c.created_at,
    diffHunk: c.diff_hunk,
    inReplyTo: c.in_reply_to_id != null ? String(c.in_reply_to_id) : null,
  });
  return applied(1);
});

/** `pull_request_review`: approved, changes requested or commented (dismissed updates the same row). */
export const onReview = handler(ReviewEvent, async (ctx, e) => {
  const pr = await ours(ctx, e.repository, e.pull_request.number);
  if (!pr) return ignored(NOT_OURS);
  const r = e.review;
  await pullRequestEvents.recordEvent(ctx.db, pr.id, {
    kind: "review",
    sourceId: String(r.id),
    actor: r.user?.login ?? null,
    state: r.state.toLowerCase().slice(0, 40),
    title: null,
    body: r.body,
    path: null,
    line: null,
    url: r.html_url ?? null,
    occurredAt: r.submitted_at ?? new Date().toISOString(),
  });
  return applied(1);
});

/** `pull_request`: closed (merged or not), reopened, and synchronize (new commits on the head branch). */
export const onPullRequest = handler(PullRequestEvent, async (ctx, e) => {
  if (e.action !== "closed" && e.action !== "reopened" && e.action !== "synchronize")
    return ignored(`action_${e.action}`);
  const pr = await ours(ctx, e.repository, e.pull_request.number);
  if (!pr) return ignored(NOT_OURS);
  const p = e.pull_request;
  const at = p.closed_at ?? p.updated_at ?? new Date().toISOString();
  if (e.action === "synchronize") {
    if (!e.after) return ignored("no_head_sha");
    await pullRequestEvents.recordEvent(ctx.db, pr.id, {
      ...empty,
      kind: "commit",
      sourceId: e.after,
      actor: e.sender?.login ?? null,
      title: `Pushed ${e.after.slice(0, 7)}`,
      occurredAt: p.updated_at ?? at,
    });
    return applied(1);
  }
  // GitHub neither orders nor dedupes deliveries: a `closed` that arrives after a newer `reopened`
  // (or the reverse) is older than the state the row holds and changes nothing.
  const when = pullRequestEvents.githubTime(p.updated_at ?? p.closed_at);
  if (e.action === "reopened") {
    // Open again (a merged one never reopens): reviews can be addressed and revisions pushed.
    if (!(await pullRequestEvents.setStatus(ctx.db, pr.id, "open", when))) return stale(ctx, pr, e.action);
    await pullRequestEvents.recordEvent(ctx.db, pr.id, {
      ...empty,
      kind: "reopened",
      sourceId: String(e.pull_request.number),
      actor: e.sender?.login ?? null,
      url: p.html_url ?? null,
      occurredAt: p.updated_at ?? new Date().toISOString(),
    });
    return applied(1);
  }
  const merged = p.merged === true;
  if (!(await pullRequestEvents.setStatus(ctx.db, pr.id, merged ? "merged" : "closed", when)))
    return stale(ctx, pr, e.action);
  await pullRequestEvents.recordEvent(ctx.db, pr.id, {
    ...empty,
    kind: merged ? "merged" : "closed",
    sourceId: String(e.pull_request.number),
    actor: (merged ? p.merged_by?.login : e.sender?.login) ?? null,
    url: p.html_url ?? null,
    occurredAt: at,
  });
  return applied(1);
});

/** A status change the row does not take: it is merged (final), or already holds a newer state. */
function stale(ctx: WebhookContext, pr: { id: string; status: string }, action: string) {
  const reason = pr.status === "merged" ? "merged_is_final" : "older_than_stored_state";
  ctx.logger.info({ deliveryId: ctx.deliveryId, pullRequestId: pr.id, action, reason }, "pull request status kept");
  return ignored(reason);
}

/** `push`: commits on the head branch of an open Fixloop pull request (by anyone). */
export const onPush = handler(PushEvent, async (ctx, e) => {
  const branch = /^refs\/heads\/(.+)$/.exec(e.ref)?.[1];
  if (!branch) return ignored("not_a_branch");
  const prs = await pullRequestEvents.findByHeadBranch(ctx.db, e.repository.id, branch);
  if (prs.length === 0) return ignored(NOT_OURS);
  for (const pr of prs) {
    for (const c of e.commits) {
      await pullRequestEvents.recordEvent(ctx.db, pr.id, {
        ...empty,
        kind: "commit",
        sourceId: c.id,
        actor: c.author?.username ?? c.author?.name ?? e.sender?.login ?? null,
        title: (c.message ?? "").split("\n")[0]?.slice(0, 300) ?? null,
        url: c.url ?? null,
        occurredAt: c.timestamp,
      });
    }
  }
  return applied(prs.length * e.commits.length);
});

/**
 * `check_run` completed: its conclusion and output, on every Fixloop pull request it names (or whose
 * head branch it ran on). A failing GitHub Actions job's log is not in the delivery: a sync job reads
 * it (two GitHub requests and a download, never inline) and records the entry again with its tail.
 * Outside the delivery's transaction, so the job never meets a row the delivery has not committed.
 */
export const onCheckRun = handler(
  CheckRunEvent,
  async (ctx, e) => {
    const run = e.check_run;
    if (e.action !== "completed" || !run.conclusion) return ignored(`action_${e.action}`);
    const repo = e.repository.id;
    const ids = new Set<string>();
    for (const p of run.pull_requests) {
      const pr = await pullRequestEvents.findPullRequest(ctx.db, repo, p.number);
      if (pr) ids.add(pr.id);
    }
    const branch = run.check_suite?.head_branch;
    if (ids.size === 0 && branch) {
      for (const pr of await pullRequestEvents.findByHeadBranch(ctx.db, repo, branch)) ids.add(pr.id);
    }
    if (ids.size === 0) return ignored(NOT_OURS);
    for (const id of ids) {
      await pullRequestEvents.recordEvent(ctx.db, id, {
        ...empty,
        kind: "check",
        sourceId: String(run.id),
        state: run.conclusion.slice(0, 40),
        title: run.name.slice(0, 300),
        body: checkOutputText(run.name, run.output),
        url: run.html_url ?? null,
        occurredAt: run.completed_at ?? new Date().toISOString(),
      });
      if (isFailingCheckState(run.conclusion) && actionsJobId(run) !== null)
        await ctx.deps.queues.sync.add("sync", { kind: "check-log", pullRequestId: id, checkRunId: run.id });
    }
    return applied(ids.size);
  },
  { outside: true },
);
