import { sql } from "kysely";
import { PullRequestTimelineEntry, type PullRequestStatus } from "@fixloop/contract";
import type { Conn } from "./conn";

/** A Fixloop pull request as a GitHub event names it (its base repository's GitHub id and number), when there is one. */
export async function findPullRequest(db: Conn, repositoryId: number | string, number: number) {
  return db
    .selectFrom("pull_requests")
    .select(["id", "user_id", "status", "branch_name", "head_github_id"])
    .where("base_github_id", "=", String(repositoryId))
    .where("pr_number", "=", number)
    .orderBy("created_at", "desc")
    .executeTakeFirst();
}

/** Fixloop's pull requests whose head is `branch` of the repository with GitHub id `headRepositoryId` (a push names only the branch). */
export async function findByHeadBranch(db: Conn, headRepositoryId: number | string, branch: string) {
  return db
    .selectFrom("pull_requests")
    .select(["id", "user_id", "status"])
    .where("head_github_id", "=", String(headRepositoryId))
    .where("branch_name", "=", branch)
    .where("status", "=", "open")
    .execute();
}

/**
 * True when Fixloop works on the repository with this GitHub id: some user has it in their list
 * (or had: its issues stay theirs), imported an issue from it or into a fork of it, or Fixloop
 * opened a pull request in it or from it. One indexed lookup each, in that order.
 */
export async function knowsRepository(db: Conn, githubId: number | string): Promise<boolean> {
  const lookups = [
    ["repositories", "github_id"],
    ["issues", "repository_github_id"],
    ["issues", "fork_github_id"],
    ["pull_requests", "base_github_id"],
    ["pull_requests", "head_github_id"],
  ] as const;
  for (const [table, column] of lookups) {
    const { rows } =
      await sql`select 1 from ${sql.table(table)} where ${sql.ref(column)} = ${String(githubId)}::bigint limit 1`.execute(
        db,
      );
    if (rows.length > 0) return true;
  }
  return false;
}

/** Kinds whose GitHub object can change (edited text, a re-run check); the others are kept as first seen. */
const CHANGING = new Set(["review", "review_comment", "check"]);

/**
 * Records one timeline entry (checked against the contract schema first). The same GitHub object
 * seen again (a webhook and a poll, an edit, a re-run) never adds a row: a review, comment or
 * check takes the newer values; a commit or a merge/close keeps the first (a push names a
 * commit's message, the synchronize that follows only its sha).
 */
export async function recordEvent(db: Conn, pullRequestId: string, entry: PullRequestTimelineEntry): Promise<void> {
  const e = PullRequestTimelineEntry.parse(entry);
  const values = {
    actor: e.actor,
    state: e.state,
    title: e.title,
    body: e.body,
    path: e.path,
    line: e.line,
    url: e.url,
    occurred_at: e.occurredAt,
    ...(e.diffHunk !== undefined ? { diff_hunk: e.diffHunk } : {}),
    ...(e.inReplyTo !== undefined ? { in_reply_to: e.inReplyTo } : {}),
  };
  await db
    .insertInto("pull_request_events")
    .values({ pull_request_id: pullRequestId, kind: e.kind, source_id: e.sourceId, ...values })
    .onConflict((oc) => {
      const same = oc.columns(["pull_request_id", "kind", "source_id"]);
      return CHANGING.has(e.kind) ? same.doUpdateSet(values) : same.doNothing();
    })
    .execute();
}

/**
 * A GitHub timestamp as the time of a state: null when it is not a date; a time in the future is now
 * (a stray far-future date would otherwise make every later real change look older).
 */
export function githubTime(value: string | null | undefined): Date | null {
  const ms = value ? Date.parse(value) : NaN;
  return Number.isNaN(ms) ? null : new Date(Math.min(ms, Date.now()));
}

/**
 * The pull request's state as a webhook reports it, GitHub's `updated_at` of that state: false (nothing
 * changes) when merged, which is final, or when the row already took a newer state from GitHub (webhooks
 * arrive out of order and are redelivered). Without a time a state applies only to a row that has none.
 */
export async function setStatus(
  db: Conn,
  pullRequestId: string,
  status: PullRequestStatus,
  githubUpdatedAt: Date | null,
): Promise<boolean> {
  const res = await db
    .updateTable("pull_requests")
    // The stored ETag described the state before this change: the next poll reads GitHub afresh
    // (a 304 on it would keep a status older than the webhook's).
    .set({
      status,
      etag: null,
      updated_at: sql`now()`,
      github_updated_at: sql`greatest(github_updated_at, ${githubUpdatedAt}::timestamptz)`,
    })
    .where("id", "=", pullRequestId)
    .where("status", "!=", "merged")
    .where((eb) =>
      githubUpdatedAt
        ? eb.or([eb("github_updated_at", "is", null), eb("github_updated_at", "<=", githubUpdatedAt)])
        : eb("github_updated_at", "is", null),
    )
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** The timeline of a user's pull request, oldest first; undefined when the pull request is not theirs. */
export async function timeline(
  db: Conn,
  userId: string,
  pullRequestId: string,
): Promise<PullRequestTimelineEntry[] | undefined> {
  const pr = await db
    .selectFrom("pull_requests")
    .select("id")
    .where("id", "=", pullRequestId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!pr) return undefined;
  const rows = await db
    .selectFrom("pull_request_events")
    .selectAll()
    .where("pull_request_id", "=", pullRequestId)
    .orderBy("occurred_at", "asc")
    .orderBy("created_at", "asc")
    .limit(500)
    .execute();
  return rows.map((r) => ({
    kind: r.kind,
    sourceId: r.source_id,
    actor: r.actor,
    state: r.state,
    title: r.title,
    body: r.body,
    path: r.path,
    line: r.line,
    url: r.url,
    occurredAt: r.occurred_at.toISOString(),
    diffHunk: r.diff_hunk,
    inReplyTo: r.in_reply_to,
    addressRequestedAt: r.address_requested_at?.toISOString() ?? null,
    addressedCommit: r.addressed_commit,
  }));
}

/** ETags of the last reads of a pull request's reviews, review comments and check runs (polling). */
export async function timelineEtags(db: Conn, pullRequestId: string): Promise<Record<string, string>> {
  const row = await db
    .selectFrom("pull_requests")
    .select(sql<unknown>`metadata->'timelineEtags'`.as("etags"))
    .where("id", "=", pullRequestId)
    .executeTakeFirst();
  const etags = row?.etags;
  if (!etags || typeof etags !== "object" || Array.isArray(etags)) return {};
  return Object.fromEntries(Object.entries(etags).filter((e): e is [string, string] => typeof e[1] === "string"));
}

export async function setTimelineEtags(db: Conn, pullRequestId: string, etags: Record<string, string>): Promise<void> {
  await db
    .updateTable("pull_requests")
    .set({ metadata: sql`metadata || jsonb_build_object('timelineEtags', ${JSON.stringify(etags)}::jsonb)` })
    .where("id", "=", pullRequestId)
    .execute();
}

/** A pull request by id, as a timeline read needs it (where it lives, whose token reads it). */
export async function findForTimeline(db: Conn, pullRequestId: string) {
  return db
    .selectFrom("pull_requests")
    .innerJoin("github_repositories as base_repo", "base_repo.github_id", "pull_requests.base_github_id")
    .select([
      "pull_requests.id",
      "pull_requests.user_id",
      "base_repo.full_name as repo_full_name",
      "pull_requests.pr_number",
      "pull_requests.status",
    ])
    .where("pull_requests.id", "=", pullRequestId)
    .executeTakeFirst();
}
