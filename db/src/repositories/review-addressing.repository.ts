import { sql } from "kysely";
import { isFailingCheckState, type FileChange } from "@fixloop/contract";
import { fenced, type Claim } from "./claims";
import type { Conn } from "./conn";
import { filesChanged } from "./json-columns";

/** A user's pull request as addressing a review needs it; undefined when it is not theirs. */
export async function findOwnedPullRequest(db: Conn, userId: string, id: string, o: { lock?: boolean } = {}) {
  let q = db
    .selectFrom("pull_requests")
    .select([
      "id",
      "user_id",
      "solution_id",
      "issue_id",
      "status",
      "pr_number",
      "html_url",
      "branch_name",
      "pushed_revision",
      "head_sha",
    ])
    .where("id", "=", id)
    .where("user_id", "=", userId);
  if (o.lock) q = q.forUpdate();
  return q.executeTakeFirst();
}

/**
 * Review comments of a pull request that still wait for Fixloop: thread starters (not replies),
 * not yet answered by a pushed commit. Oldest first.
 */
export async function openReviewComments(db: Conn, pullRequestId: string) {
  return db
    .selectFrom("pull_request_events")
    .select(["source_id", "actor", "body", "path", "line", "diff_hunk", "address_requested_at"])
    .where("pull_request_id", "=", pullRequestId)
    .where("kind", "=", "review_comment")
    .where("in_reply_to", "is", null)
    .where("addressed_commit", "is", null)
    .orderBy("occurred_at", "asc")
    .limit(200)
    .execute();
}
export type OpenReviewComment = Awaited<ReturnType<typeof openReviewComments>>[number];

/** The latest result of each check (by name) when it failed, with the text GitHub gave for it. */
export async function failingChecks(db: Conn, pullRequestId: string) {
  const rows = await db
    .selectFrom("pull_request_events")
    .select(["title", "state", "body", "occurred_at"])
    .where("pull_request_id", "=", pullRequestId)
    .where("kind", "=", "check")
    .orderBy("occurred_at", "desc")
    .limit(200)
    .execute();
  const latest = new Map<string, (typeof rows)[number]>();
  for (const r of rows) if (!latest.has(r.title ?? "")) latest.set(r.title ?? "", r);
  return [...latest.values()].filter((r) => isFailingCheckState(r.state));
}

/** Marks review comments as asked to be addressed (the next pushed revision answers their threads). */
export async function requestAddressing(db: Conn, pullRequestId: string, sourceIds: string[]): Promise<void> {
  if (sourceIds.length === 0) return;
  await db
    .updateTable("pull_request_events")
    .set({ address_requested_at: sql`now()` })
    .where("pull_request_id", "=", pullRequestId)
    .where("kind", "=", "review_comment")
    .where("source_id", "in", sourceIds)
    .execute();
}

/**
 * Review comments asked to be addressed and not yet answered: the threads a push replies on. With
 * `pushed`, only those asked for by the time the refinement that made that revision started (they
 * were marked in its starting transaction, the same `now()`): a comment asked for later, by a
 * refinement that failed or still runs, is not addressed by this revision. Compared in SQL, at
 * Postgres's microseconds. A revision no refinement made takes every comment asked for.
 */
export async function awaitingReply(
  db: Conn,
  pullRequestId: string,
  pushed?: { solutionId: string; revision: number },
) {
  let q = db
    .selectFrom("pull_request_events")
    .select(["source_id", "path", "line"])
    .where("pull_request_id", "=", pullRequestId)
    .where("kind", "=", "review_comment")
    .where("address_requested_at", "is not", null)
    .where("addressed_commit", "is", null);
  if (pushed) {
    const startedAt = db
      .selectFrom("solution_revisions as r")
      .innerJoin("solve_runs as run", "run.id", "r.run_id")
      .select("run.created_at")
      .where("r.solution_id", "=", pushed.solutionId)
      .where("r.revision", "=", pushed.revision)
      .where("run.kind", "=", "refine");
    q = q.where("address_requested_at", "<=", sql<Date>`coalesce((${startedAt}), 'infinity'::timestamptz)`);
  }
  return q.orderBy("occurred_at", "asc").execute();
}

/** The comment's thread got its reply for `commitSha` (fenced by the push's claim, see solutions.claimPullRequest). */
export async function markAddressed(
  db: Conn,
  claim: Claim,
  pullRequestId: string,
  sourceId: string,
  commitSha: string,
) {
  await fenced(db, claim, (trx) =>
    trx
      .updateTable("pull_request_events")
      .set({ addressed_commit: commitSha })
      .where("pull_request_id", "=", pullRequestId)
      .where("kind", "=", "review_comment")
      .where("source_id", "=", sourceId)
      .execute(),
  );
}

/**
 * Fixloop pushed `revision` of the solution to the branch as `headSha` (the next push builds on it);
 * fenced by the push's claim (see solutions.claimPullRequest).
 */
export async function recordPush(
  db: Conn,
  claim: Claim,
  pullRequestId: string,
  p: { revision: number; headSha: string; body?: string },
): Promise<void> {
  await fenced(db, claim, (trx) =>
    trx
      .updateTable("pull_requests")
      .set({
        pushed_revision: p.revision,
        head_sha: p.headSha,
        ...(p.body !== undefined ? { body: p.body } : {}),
        updated_at: sql`now()`,
      })
      .where("id", "=", pullRequestId)
      .execute(),
  );
}

/** The files of one stored revision of a solution (its history), when kept. */
export async function revisionFiles(db: Conn, solutionId: string, revision: number): Promise<FileChange[] | undefined> {
  const row = await db
    .selectFrom("solution_revisions")
    .select("files_changed")
    .where("solution_id", "=", solutionId)
    .where("revision", "=", revision)
    .executeTakeFirst();
  return row ? filesChanged.read(row.files_changed) : undefined;
}
