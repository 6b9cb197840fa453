import { pullRequestEvents } from "@fixloop/db";
import { TIMELINE_TEXT_MAX, type PullRequestTimelineEntry } from "@fixloop/contract";
import type { GithubClient } from "@fixloop/runtime";

type Db = Parameters<typeof pullRequestEvents.recordEvent>[0];

/** A merge or close seen by polling, as the webhook records it (same GitHub object, same row). */
export async function recordClosed(
  db: Db,
  id: string,
  pr: { number: number; closed_at: string | null; merged_by?: { login: string } | null; html_url: string },
  status: "merged" | "closed",
) {
  await pullRequestEvents.recordEvent(db, id, {
    kind: status,
    sourceId: String(pr.number),
    actor: status === "merged" ? (pr.merged_by?.login ?? null) : null,
    state: null,
    title: null,
    body: null,
    path: null,
    line: null,
    url: pr.html_url,
    occurredAt: pr.closed_at ?? new Date().toISOString(),
  });
}

const cut = (s: string | null | undefined) => (s == null ? null : s.slice(0, TIMELINE_TEXT_MAX));
const empty = { actor: null, state: null, title: null, body: null, path: null, line: null, url: null };

interface Target {
  id: string;
  owner: string;
  repo: string;
  number: number;
  /** null when the pull request answered 304: the head of the last read (kept with its ETag) is still current. */
  headSha: string | null;
}

/**
 * Where no webhook arrives, reads a pull request's reviews, review comments and check runs, each
 * conditional on the ETag of its last read (a 304 costs no rate limit), and records them through
 * the same repository function the webhook uses, so neither path adds an entry twice.
 */
export async function pollTimeline(gh: GithubClient, db: Db, t: Target) {
  const etags = await pullRequestEvents.timelineEtags(db, t.id);
  const headSha =
    t.headSha ??
    Object.keys(etags)
      .find((k) => k.startsWith("checks:"))
      ?.slice("checks:".length);
  const next = { ...etags };
  const o = { owner: t.owner, repo: t.repo };
  let recorded = 0;
  const read = async <T>(
    key: string,
    get: (headers: Record<string, string>) => Promise<{ data: T; headers: { etag?: string } }>,
  ) => {
    try {
      const res = await get(etags[key] ? { "if-none-match": etags[key] } : {});
      if (res.headers.etag) next[key] = res.headers.etag;
      return res.data;
    } catch (err) {
      if ((err as { status?: number }).status === 304) return null;
      throw err;
    }
  };
  const record = async (e: PullRequestTimelineEntry) => {
    await pullRequestEvents.recordEvent(db, t.id, e);
    recorded++;
  };
  const reviews = await read("reviews", (headers) =>
    gh.rest.pulls.listReviews({ ...o, pull_number: t.number, per_page: 100, headers }),
  );
  for (const r of reviews ?? []) {
    if (r.state === "PENDING") continue;
    await record({
      ...empty,
      kind: "review",
      sourceId: String(r.id),
      actor: r.user?.login ?? null,
      state: r.state.toLowerCase().slice(0, 40),
      body: cut(r.body) || null,
      url: r.html_url,
      occurredAt: r.submitted_at ?? new Date().toISOString(),
    });
  }
  const comments = await read("comments", (headers) =>
    gh.rest.pulls.listReviewComments({ ...o, pull_number: t.number, per_page: 100, headers }),
  );
  for (const c of comments ?? []) {
    await record({
      ...empty,
      kind: "review_comment",
      sourceId: String(c.id),
      actor: c.user?.login ?? null,
      body: cut(c.body),
      path: c.path,
      line: c.line ?? c.original_line ?? null,
      url: c.html_url,
      occurredAt: c.created_at,
      diffHunk: cut(c.diff_hunk),
      inReplyTo: c.in_reply_to_id != null ? String(c.in_reply_to_id) : null,
    });
  }
  const checks = headSha
    ? await read(`checks:${headSha}`, (headers) =>
        gh.rest.checks.listForRef({ ...o, ref: headSha, per_page: 100, headers }),
      )
    : null;
  for (const run of checks?.check_runs ?? []) {
    if (run.status !== "completed" || !run.conclusion) continue;
    await record({
      ...empty,
      kind: "check",
      sourceId: String(run.id),
      state: run.conclusion.slice(0, 40),
      title: run.name.slice(0, 300),
      body: cut(run.output?.title ?? run.output?.summary ?? null),
      url: run.html_url ?? null,
      occurredAt: run.completed_at ?? new Date().toISOString(),
    });
  }
  const kept = Object.fromEntries(
    Object.entries(next).filter(([k]) => !k.startsWith("checks:") || k === `checks:${headSha}`),
  );
  await pullRequestEvents.setTimelineEtags(db, t.id, kept);
  return recorded;
}
