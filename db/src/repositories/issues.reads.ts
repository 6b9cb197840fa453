import { CompiledQuery, sql } from "kysely";
import type { LinkedPullRequest } from "@fixloop/contract";
import type { Issue } from "../schema";
import type { Conn } from "./conn";
import { issueAssignees, issueLabels, issueLinkedPulls } from "./json-columns";

/** When the user's list lost the issue's repository (see `IssueNames`), over the `issue_access` join. */
export const repositoryLeftAt = sql<Date | null>`case when issues.is_imported then null else issue_access.left_at end`;

/**
 * Issues with the names they are shown and worked under (see `IssueNames`): each a join on its
 * repository's one row, so a rename on GitHub is read here at once, with nothing to move.
 */
export function selectIssues(db: Conn) {
  return db
    .selectFrom("issues")
    .innerJoin("github_repositories as issue_repo", "issue_repo.github_id", "issues.repository_github_id")
    .leftJoin("github_repositories as issue_fork", "issue_fork.github_id", "issues.fork_github_id")
    .leftJoin("repositories as issue_access", (join) =>
      join
        .onRef("issue_access.user_id", "=", "issues.user_id")
        .onRef("issue_access.github_id", "=", "issues.repository_github_id"),
    )
    .selectAll("issues")
    .select([
      "issue_repo.full_name as repo_full_name",
      sql<string | null>`case when issues.is_imported then issue_repo.full_name end`.as("upstream_full_name"),
      "issue_fork.full_name as fork_full_name",
      repositoryLeftAt.as("repository_left_at"),
    ]);
}

/** Issue `issueNumber` of the repository with GitHub id `repositoryId`, every user's row of it. */
export const issueOnGithub = (repositoryId: number | string, issueNumber: number) =>
  sql<boolean>`issues.repository_github_id = ${String(repositoryId)}::bigint and issues.issue_number = ${issueNumber}`;

/** An issue with its JSON columns decoded. */
export type IssueRecord = Omit<Issue, "labels" | "assignees" | "linked_pull_requests"> & {
  labels: string[];
  assignees: string[];
  linked_pull_requests: LinkedPullRequest[];
};

/** An issue with the newest open pull request Fixloop opened for it and its solution awaiting review, if any. */
export type IssueWithPullRequest = IssueRecord & {
  open_pr_url: string | null;
  open_pr_number: number | null;
  open_pr_draft: boolean | null;
  review_solution_id: string | null;
  /** The label that started the issue's newest run, when the label trigger started it (else null). */
  latest_run_label: string | null;
  /** Why the solution awaiting review is unverified (null: it is not). */
  review_unverified: string | null;
};

export function decodeIssue<R extends Pick<Issue, "labels" | "assignees" | "linked_pull_requests">>(
  row: R,
): Omit<R, "labels" | "assignees" | "linked_pull_requests"> & {
  labels: string[];
  assignees: string[];
  linked_pull_requests: LinkedPullRequest[];
} {
  return {
    ...row,
    labels: issueLabels.read(row.labels),
    assignees: issueAssignees.read(row.assignees),
    linked_pull_requests: issueLinkedPulls.read(row.linked_pull_requests),
  };
}

export async function find(db: Conn, issueId: string): Promise<IssueRecord | undefined> {
  const row = await selectIssues(db).where("issues.id", "=", issueId).executeTakeFirst();
  return row && decodeIssue(row);
}

/**
 * Issues with their newest open pull request, pending solution and run, each read in one lateral
 * join through an index on `issue_id` (2026-11-29 migration), once per issue rather than once per
 * column.
 */
export function selectWithPullRequest(db: Conn) {
  return selectIssues(db)
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom("pull_requests")
          .select([
            "pull_requests.html_url",
            "pull_requests.pr_number",
            sql<boolean | null>`(pull_requests.metadata->>'draft')::boolean`.as("draft"),
          ])
          .whereRef("pull_requests.issue_id", "=", "issues.id")
          .where("pull_requests.status", "=", "open")
          .orderBy("pull_requests.created_at", "desc")
          .limit(1)
          .as("open_pr"),
      (join) => join.onTrue(),
    )
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom("solutions")
          .select(["solutions.id", sql<string | null>`solutions.metadata->'unverified'->>'reason'`.as("unverified")])
          .whereRef("solutions.issue_id", "=", "issues.id")
          .where("solutions.status", "=", "pending")
          .orderBy("solutions.created_at", "desc")
          .limit(1)
          .as("review"),
      (join) => join.onTrue(),
    )
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom("solve_runs")
          .select(
            sql<
              string | null
            >`case when solve_runs.input->>'trigger' = 'label' then coalesce(solve_runs.input->>'triggerLabel', '') end`.as(
              "label",
            ),
          )
          .whereRef("solve_runs.issue_id", "=", "issues.id")
          .orderBy("solve_runs.created_at", "desc")
          .limit(1)
          .as("latest_run"),
      (join) => join.onTrue(),
    )
    .select([
      "open_pr.html_url as open_pr_url",
      "open_pr.pr_number as open_pr_number",
      "open_pr.draft as open_pr_draft",
      "review.id as review_solution_id",
      "latest_run.label as latest_run_label",
      "review.unverified as review_unverified",
    ]);
}

/** The user's issues, newest first, each with its open pull request. */
export async function listOwned(db: Conn, userId: string, status?: Issue["status"]): Promise<IssueWithPullRequest[]> {
  const rows = await listOwnedQuery(db, userId, status).execute();
  return rows.map(decodeIssue);
}

function listOwnedQuery(db: Conn, userId: string, status?: Issue["status"]) {
  let q = selectWithPullRequest(db).where("issues.user_id", "=", userId);
  if (status) q = q.where("issues.status", "=", status);
  return q.orderBy("issues.created_at", "desc").orderBy("issues.id", "desc");
}

/**
 * The planner's total cost of the user's issue list, as `EXPLAIN` estimates it on fresh statistics
 * (the bench prints it right after seeding, before autovacuum has analysed the new rows).
 */
export async function listOwnedPlanCost(db: Conn, userId: string): Promise<number> {
  await sql`analyze issues, solve_runs, solutions, pull_requests`.execute(db);
  const q = listOwnedQuery(db, userId).compile();
  const { rows } = await db.executeQuery<{ "QUERY PLAN": [{ Plan: { "Total Cost": number } }] }>(
    CompiledQuery.raw(`explain (format json) ${q.sql}`, [...q.parameters]),
  );
  return rows[0]?.["QUERY PLAN"][0].Plan["Total Cost"] ?? Number.NaN;
}

/** The user's issue with its open pull request; another user's issue is indistinguishable from a missing one. */
export async function findOwned(db: Conn, userId: string, id: string): Promise<IssueWithPullRequest | undefined> {
  const row = await selectWithPullRequest(db)
    .where("issues.user_id", "=", userId)
    .where("issues.id", "=", id)
    .executeTakeFirst();
  return row && decodeIssue(row);
}

/** The fields a run start checks, of the user's issue. */
export async function findForRun(db: Conn, userId: string, id: string) {
  return selectIssues(db).where("issues.id", "=", id).where("issues.user_id", "=", userId).executeTakeFirst();
}

/** How many issues of the repository (by GitHub id) the user has. */
export async function count(db: Conn, userId: string, repositoryId: number | string): Promise<number> {
  const row = await db
    .selectFrom("issues")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", userId)
    .where("repository_github_id", "=", String(repositoryId))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * What decides what may be done with issue `issueId` (the contract's `standing`): its gone and
 * closed marks, whether its repository left the user's list, and whether a pull request Fixloop
 * opened for it is open. One read, for a view that serves the issue's actions beside something else.
 */
export async function standingOf(db: Conn, issueId: string) {
  return db
    .selectFrom("issues")
    .leftJoin("repositories as issue_access", (join) =>
      join
        .onRef("issue_access.user_id", "=", "issues.user_id")
        .onRef("issue_access.github_id", "=", "issues.repository_github_id"),
    )
    .select((eb) => [
      "issues.gone",
      "issues.moved_to",
      "issues.status",
      "issues.state",
      "issues.is_imported",
      repositoryLeftAt.as("repository_left_at"),
      eb
        .exists(
          eb
            .selectFrom("pull_requests")
            .select("pull_requests.id")
            .whereRef("pull_requests.issue_id", "=", "issues.id")
            .where("pull_requests.status", "=", "open"),
        )
        .as("pull_request_open"),
    ])
    .where("issues.id", "=", issueId)
    .executeTakeFirst();
}
