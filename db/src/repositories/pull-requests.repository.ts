import { sql, type Kysely, type Transaction } from "kysely";
import { ACTIVE_RUN_STATUSES, type PullRequestStatus } from "@fixloop/contract";
import type { Database, PullRequest } from "../schema";
import { fenced, type Claim } from "./claims";
import * as issues from "./issues.repository";
import { pullRequestMetadata, type PullRequestMetadata } from "./json-columns";
import * as githubRepositories from "./github-repositories.repository";
import type { GithubRepositoryFields } from "./github-repositories.repository";
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
  /** The repository the pull request is opened in and the one its branch is in, as GitHub answered. */
  base: GithubRepositoryFields;
  head: GithubRepositoryFields;
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
    const baseId = await githubRepositories.upsert(trx, r.base);
    const headId = await githubRepositories.upsert(trx, r.head);
    const row = await trx
      .insertInto("pull_requests")
      .values({
        user_id: r.userId,
        solution_id: r.solutionId,
        issue_id: r.issueId,
        base_github_id: baseId,
        head_github_id: headId,
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
      .returning("id")
      .executeTakeFirstOrThrow();
    await solutions.markPullRequestCreated(trx, r.solutionId);
    await issues.markPullRequestCreated(trx, r.issueId);
    const stored = await selectPullRequests(trx).where("pull_requests.id", "=", row.id).executeTakeFirstOrThrow();
    return { ...stored, metadata: pullRequestMetadata.read(stored.metadata) };
  });
}

/**
 * Pull requests with their base and head repositories' names now, and their page under the base's
 * page, each a join on the repository's one row: a rename on GitHub is read here at once, with
 * nothing to move.
 */
export function selectPullRequests(db: Conn) {
  return db
    .selectFrom("pull_requests")
    .innerJoin("github_repositories as base_repo", "base_repo.github_id", "pull_requests.base_github_id")
    .innerJoin("github_repositories as head_repo", "head_repo.github_id", "pull_requests.head_github_id")
    .select([
      "pull_requests.id",
      "pull_requests.user_id",
      "pull_requests.solution_id",
      "pull_requests.issue_id",
      "pull_requests.base_github_id",
      "pull_requests.head_github_id",
      "pull_requests.pr_number",
      "pull_requests.title",
      "pull_requests.body",
      "pull_requests.branch_name",
      "pull_requests.base_branch",
      "pull_requests.status",
      "pull_requests.metadata",
      "pull_requests.etag",
      "pull_requests.synced_at",
      "pull_requests.created_at",
      "pull_requests.updated_at",
      "pull_requests.pushed_revision",
      "pull_requests.head_sha",
      "pull_requests.github_updated_at",
      "base_repo.full_name as repo_full_name",
      "head_repo.full_name as head_repo_full_name",
      sql<string>`base_repo.html_url || '/pull/' || pull_requests.pr_number`.as("html_url"),
    ]);
}

/** The user's pull requests a sync reads again (merged is final). */
export async function listToSync(db: Conn, userId: string) {
  const rows = await selectPullRequests(db)
    .where("pull_requests.user_id", "=", userId)
    .where("pull_requests.status", "!=", "merged")
    .execute();
  return rows.map((r) => ({ ...r, metadata: pullRequestMetadata.read(r.metadata) }));
}

/**
 * Open pull requests the timed poll reads, least recently read first, at most `limit`: only of
 * users whose GitHub token is still stored, and not in a repository that delivered a webhook in
 * the last `quietSeconds` (there the webhook already brings the news).
 */
export async function listToPoll(db: Conn, o: { limit: number; quietSeconds: number }) {
  const rows = await selectPullRequests(db)
    .innerJoin("github_accounts as ga", "ga.user_id", "pull_requests.user_id")
    .where("pull_requests.status", "=", "open")
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("webhook_events as w")
            .select("w.event_id")
            .where("w.provider", "=", "github")
            .where("w.received_at", ">", sql<Date>`now() - make_interval(secs => ${o.quietSeconds})`)
            .where(sql`w.payload->'repository'->>'id'`, "=", sql`pull_requests.base_github_id::text`),
        ),
      ),
    )
    .orderBy(sql`pull_requests.synced_at asc nulls first`)
    .orderBy("pull_requests.id")
    .limit(o.limit)
    .execute();
  return rows.map((r) => ({ ...r, metadata: pullRequestMetadata.read(r.metadata) }));
}

/** A repository as GitHub names it in an answer: its id and where it lives now. */
export interface RepositorySeen {
  githubId: number;
  fullName: string;
}

/**
 * What GitHub answered for a pull request: its state (with GitHub's `updated_at` of it), title and
 * labels. A webhook that already set a newer state keeps it (the read may have raced the webhook).
 * The base and head repositories' names GitHub answered with (a rename or transfer no webhook
 * brought) are followed (see `followRepositories`).
 */
export async function refresh(
  db: Conn,
  pr: Pick<PullRequest, "id">,
  seen: {
    status: PullRequestStatus;
    githubUpdatedAt: Date | null;
    title: string;
    etag: string | null;
    metadata: PullRequestMetadata;
    repositories: RepositorySeen[];
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
  await followRepositories(db, seen.repositories);
}

const NAME_PART = /^[A-Za-z0-9_.-]{1,100}$/;
const isFullName = (name: unknown) =>
  typeof name === "string" &&
  name.split("/").length === 2 &&
  name.split("/").every((p) => NAME_PART.test(p) && p !== "." && p !== "..");

/**
 * Records the names GitHub gives repositories now (learnt when a push or sync reads a pull
 * request; a rename or transfer may not have been delivered): each is one update of that
 * repository's row. A name that is no `owner/name` is ignored (it never becomes a page path).
 */
export async function followRepositories(db: Conn, seen: RepositorySeen[]): Promise<void> {
  for (const r of seen) {
    if (!isFullName(r.fullName)) continue;
    const [owner, name] = r.fullName.split("/") as [string, string];
    await githubRepositories.follow(db, { githubId: r.githubId, owner, name, fullName: r.fullName });
  }
}

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
  return selectPullRequests(db).where("pull_requests.solution_id", "=", solutionId).executeTakeFirst();
}

/**
 * The user's pull requests, newest first (at most 500), their metadata decoded, with their issue's
 * fields that say whether its repository left the user's list.
 */
export async function listOwned(db: Conn, userId: string) {
  const rows = await selectPullRequests(db)
    .innerJoin("issues", "issues.id", "pull_requests.issue_id")
    .leftJoin("repositories as issue_access", (join) =>
      join
        .onRef("issue_access.user_id", "=", "issues.user_id")
        .onRef("issue_access.github_id", "=", "issues.repository_github_id"),
    )
    .innerJoin("solutions", "solutions.id", "pull_requests.solution_id")
    .select([
      "issues.is_imported",
      sql<Date | null>`case when issues.is_imported then null else issue_access.left_at end`.as("repository_left_at"),
      "solutions.revision as solution_revision",
    ])
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
