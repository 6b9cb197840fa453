import { sql, type Kysely, type Transaction } from "kysely";
import { ACTIVE_RUN_STATUSES, type PullRequestStatus } from "@fixloop/contract";
import type { Database, PullRequest } from "../schema";
import { fenced, type Claim } from "./claims";
import * as issues from "./issues.repository";
import { pullRequestMetadata, type PullRequestMetadata } from "./json-columns";
import { pageOf } from "./github-pages";
import * as solutions from "./solutions.repository";

type Conn = Kysely<Database> | Transaction<Database>;

/**
 * The open pull request of an issue, if any, other than the one of `exceptSolutionId`. A second
 * solution must not replace it: its branch would be force-updated and the first fix lost.
 */
export async function findOpenPullRequestForIssue(
  db: Conn,
  issueId: string,
  exceptSolutionId?: string,
): Promise<{ html_url: string; pr_number: number } | undefined> {
  let q = db
    .selectFrom("pull_requests")
    .select(["html_url", "pr_number"])
    .where("issue_id", "=", issueId)
    .where("status", "=", "open");
  if (exceptSolutionId) q = q.where("solution_id", "<>", exceptSolutionId);
  return q.executeTakeFirst();
}

export interface NewPullRequestRow {
  userId: string;
  solutionId: string;
  issueId: string;
  repoFullName: string;
  headRepoFullName: string;
  number: number;
  title: string;
  body: string;
  branch: string;
  baseBranch: string;
  status: PullRequestStatus;
  htmlUrl: string;
  metadata: PullRequestMetadata;
  /** The solution revision pushed to the branch and its commit. */
  pushedRevision?: number;
  headSha?: string;
}

/**
 * Stores the pull request and moves solution and issue to pr_created, all in one transaction; with
 * the pull-request job's claim (see solutions.claimPullRequest), only while the job is still the writer's.
 */
export async function record(db: Conn, r: NewPullRequestRow, claim?: Claim): Promise<PullRequest> {
  return fenced(db, claim, async (trx) => {
    const row = await trx
      .insertInto("pull_requests")
      .values({
        user_id: r.userId,
        solution_id: r.solutionId,
        issue_id: r.issueId,
        repo_full_name: r.repoFullName,
        head_repo_full_name: r.headRepoFullName,
        pr_number: r.number,
        title: r.title,
        body: r.body,
        branch_name: r.branch,
        base_branch: r.baseBranch,
        status: r.status,
        html_url: r.htmlUrl,
        metadata: pullRequestMetadata.write(r.metadata),
        synced_at: sql`now()`,
        pushed_revision: r.pushedRevision ?? null,
        head_sha: r.headSha ?? null,
      })
      .onConflict((oc) =>
        oc.column("solution_id").doUpdateSet({ pr_number: r.number, html_url: r.htmlUrl, updated_at: sql`now()` }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    await solutions.markPullRequestCreated(trx, r.solutionId);
    await issues.markPullRequestCreated(trx, r.issueId);
    return { ...row, metadata: pullRequestMetadata.read(row.metadata) };
  });
}

/** The user's pull requests a sync reads again (merged is final). */
export async function listToSync(db: Conn, userId: string) {
  const rows = await db
    .selectFrom("pull_requests")
    .select(["id", "repo_full_name", "head_repo_full_name", "html_url", "pr_number", "etag", "metadata", "status"])
    .where("user_id", "=", userId)
    .where("status", "!=", "merged")
    .execute();
  return rows.map((r) => ({ ...r, metadata: pullRequestMetadata.read(r.metadata) }));
}

/**
 * Open pull requests the timed poll reads, least recently read first, at most `limit`: only of
 * users whose GitHub token is still stored, and not in a repository that delivered a webhook in
 * the last `quietSeconds` (there the webhook already brings the news).
 */
export async function listToPoll(db: Conn, o: { limit: number; quietSeconds: number }) {
  const rows = await db
    .selectFrom("pull_requests as pr")
    .innerJoin("github_accounts as ga", "ga.user_id", "pr.user_id")
    .select([
      "pr.id",
      "pr.user_id",
      "pr.repo_full_name",
      "pr.head_repo_full_name",
      "pr.html_url",
      "pr.pr_number",
      "pr.etag",
      "pr.metadata",
      "pr.status",
    ])
    .where("pr.status", "=", "open")
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("webhook_events as w")
            .select("w.event_id")
            .where("w.provider", "=", "github")
            .where("w.received_at", ">", sql<Date>`now() - make_interval(secs => ${o.quietSeconds})`)
            .where(sql`lower(w.payload->'repository'->>'full_name')`, "=", sql`lower(pr.repo_full_name)`),
        ),
      ),
    )
    .orderBy(sql`pr.synced_at asc nulls first`)
    .orderBy("pr.id")
    .limit(o.limit)
    .execute();
  return rows.map((r) => ({ ...r, metadata: pullRequestMetadata.read(r.metadata) }));
}

/**
 * What GitHub answered for a pull request: its state (with GitHub's `updated_at` of it), title and
 * labels. A webhook that already set a newer state keeps it (the read may have raced the webhook).
 * The base and head repositories' names GitHub answered with (a rename or transfer no webhook
 * brought) move the row as `followNames` does.
 */
export async function refresh(
  db: Conn,
  pr: PullRequestNames & Pick<PullRequest, "id" | "pr_number">,
  seen: {
    status: PullRequestStatus;
    githubUpdatedAt: Date | null;
    title: string;
    etag: string | null;
    metadata: PullRequestMetadata;
    names: { repoFullName: string; headRepoFullName: string };
  },
): Promise<void> {
  const at = seen.githubUpdatedAt;
  await db
    .updateTable("pull_requests")
    .set({
      status: at
        ? sql<PullRequestStatus>`case when github_updated_at > ${at}::timestamptz then status else ${seen.status} end`
        : seen.status,
      github_updated_at: sql`greatest(github_updated_at, ${at}::timestamptz)`,
      title: seen.title,
      etag: seen.etag,
      metadata: pullRequestMetadata.write(seen.metadata),
      synced_at: sql`now()`,
      updated_at: sql`now()`,
    })
    .where("id", "=", pr.id)
    .execute();
  await followNames(db, pr, seen.names);
}

type PullRequestNames = Pick<PullRequest, "repo_full_name" | "head_repo_full_name" | "html_url">;

const NAME_PART = /^[A-Za-z0-9_.-]{1,100}$/;
const isFullName = (name: unknown) =>
  typeof name === "string" &&
  name.split("/").length === 2 &&
  name.split("/").every((p) => NAME_PART.test(p) && p !== "." && p !== "..");

/**
 * Records the names GitHub gives a pull request's base and head repositories now (learnt when a
 * push reads them; a rename or transfer may not have been delivered), and its page under the base's
 * name on the stored page's host. Only this row changes. When another stored pull request already
 * holds this number under the base's new name (a repository that had the name before), or one is
 * stored with it at the same moment, the row keeps its names: which of the two GitHub means is not
 * known here. Answers the names the row holds.
 */
export async function followNames(
  db: Conn,
  pr: PullRequestNames & Pick<PullRequest, "id" | "pr_number">,
  to: { repoFullName: string; headRepoFullName: string },
): Promise<PullRequestNames> {
  const kept = {
    repo_full_name: pr.repo_full_name,
    head_repo_full_name: pr.head_repo_full_name,
    html_url: pr.html_url,
  };
  if (pr.repo_full_name === to.repoFullName && pr.head_repo_full_name === to.headRepoFullName) return kept;
  // The names come from GitHub's answers: one that is no `owner/name` never becomes a page path.
  if (!isFullName(to.repoFullName) || !isFullName(to.headRepoFullName)) return kept;
  const move = (conn: Conn) =>
    conn
      .updateTable("pull_requests")
      .set({
        repo_full_name: to.repoFullName,
        head_repo_full_name: to.headRepoFullName,
        html_url: `${pageOf(pr.html_url, to.repoFullName)}/pull/${pr.pr_number}`,
        updated_at: sql`now()`,
      })
      .where("id", "=", pr.id)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom("pull_requests as taken")
              .select("taken.id")
              .where("taken.repo_full_name", "=", to.repoFullName)
              .where("taken.pr_number", "=", pr.pr_number)
              .where("taken.id", "!=", pr.id),
          ),
        ),
      )
      .returning(["repo_full_name", "head_repo_full_name", "html_url"])
      .executeTakeFirst();
  // The check above sees only committed rows: a pull request stored under the new name and number
  // at the same moment still breaks the unique key. That row keeps its names too, and inside a
  // transaction only this statement is undone (a savepoint), so the caller's other writes stand.
  if (!db.isTransaction) {
    try {
      return (await move(db)) ?? kept;
    } catch (err) {
      if (isNumberTaken(err)) return kept;
      throw err;
    }
  }
  await sql`savepoint pull_request_follow_names`.execute(db);
  try {
    const moved = await move(db);
    await sql`release savepoint pull_request_follow_names`.execute(db);
    return moved ?? kept;
  } catch (err) {
    if (!isNumberTaken(err)) throw err;
    await sql`rollback to savepoint pull_request_follow_names`.execute(db);
    await sql`release savepoint pull_request_follow_names`.execute(db);
    return kept;
  }
}

const isNumberTaken = (err: unknown) =>
  (err as { code?: string; constraint?: string }).code === "23505" &&
  (err as { constraint?: string }).constraint === "pull_requests_repo_number_uq";

/** GitHub answered 304: only the time of the check changes. */
export async function markUnchanged(db: Conn, id: string): Promise<void> {
  await db
    .updateTable("pull_requests")
    .set({ synced_at: sql`now()` })
    .where("id", "=", id)
    .execute();
}

/** The pull request opened from a solution (the newest), when there is one. */
export async function forSolution(db: Conn, solutionId: string) {
  const row = await db
    .selectFrom("pull_requests")
    .select(["id", "pr_number", "html_url", "status", "metadata", "pushed_revision"])
    .where("solution_id", "=", solutionId)
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    pushedRevision: row.pushed_revision,
    number: row.pr_number,
    htmlUrl: row.html_url,
    status: row.status,
    draft: pullRequestMetadata.read(row.metadata).draft === true,
  };
}

/** The stored pull request of a solution, as stored. */
export async function findBySolution(db: Conn, solutionId: string): Promise<PullRequest | undefined> {
  return db.selectFrom("pull_requests").selectAll().where("solution_id", "=", solutionId).executeTakeFirst();
}

/**
 * The user's pull requests, newest first (at most 500), their metadata decoded, with their issue's
 * fields that say whether its repository left the user's list.
 */
export async function listOwned(db: Conn, userId: string) {
  const rows = await db
    .selectFrom("pull_requests")
    .innerJoin("issues", "issues.id", "pull_requests.issue_id")
    .innerJoin("solutions", "solutions.id", "pull_requests.solution_id")
    .selectAll("pull_requests")
    .select(["issues.is_imported", "issues.repository_left_at", "solutions.revision as solution_revision"])
    // The refinement of the solution still queued or running ("Address review" in progress): it
    // outlives the page that started it.
    .select((eb) =>
      eb
        .selectFrom("solve_runs")
        .select("solve_runs.id")
        .whereRef("solve_runs.solution_id", "=", "pull_requests.solution_id")
        .where("solve_runs.kind", "=", "refine")
        .where("solve_runs.status", "in", ACTIVE_RUN_STATUSES)
        .limit(1)
        .as("active_refine_run_id"),
    )
    .where("pull_requests.user_id", "=", userId)
    .orderBy("pull_requests.created_at", "desc")
    .limit(500)
    .execute();
  return rows.map((r) => ({ ...r, metadata: pullRequestMetadata.read(r.metadata) }));
}
export type PullRequestRecord = Awaited<ReturnType<typeof listOwned>>[number];
