import { sql } from "kysely";
import { CLOSED_TAB_STATUSES, type IssueCounts, type IssueListTab } from "@fixloop/contract";
import type { Issue } from "../schema";
import type { Conn } from "./conn";
import { decodeIssue, selectWithPullRequest, type IssueWithPullRequest } from "./issues.reads";

/**
 * Where a page of the issue list starts: right after the issue created at `createdAt` (UTC, to the
 * microsecond Postgres stores) with id `id`. The id breaks ties between issues created together
 * (a repository sync stores many in one statement), so no issue is skipped or listed twice.
 */
export interface IssueListPosition {
  createdAt: string;
  id: string;
}

export interface IssuePageOptions {
  tab?: IssueListTab;
  status?: Issue["status"];
  after?: IssueListPosition;
  limit: number;
  /** Text the title or `owner/repo#number` contains, case-insensitive; `%`, `_` and `\` match themselves. */
  q?: string;
}

/**
 * The Issues page's Open tab: an open status, or a solution waiting for the user's review. The
 * pending solution is looked up per issue through its partial index: written as `exists`, the
 * planner hashed it instead, reading every pending solution of every user on each list.
 */
const inOpenTab = sql<boolean>`(issues.status not in (${sql.join([...CLOSED_TAB_STATUSES])}) or coalesce((
  select true from solutions where solutions.issue_id = issues.id and solutions.status = 'pending' limit 1), false))`;

/**
 * One page of the user's issues, newest first (ties by id), each with its open pull request; the
 * position the next page starts at, or null on the last page. `after` only positions the page:
 * the user's own issues are all it can return, whoever's issue the position came from.
 */
export async function listOwnedPage(
  db: Conn,
  userId: string,
  o: IssuePageOptions,
): Promise<{ issues: IssueWithPullRequest[]; next: IssueListPosition | null }> {
  let q = selectWithPullRequest(db)
    .select(sql<string>`to_char(issues.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as("position"))
    .where("issues.user_id", "=", userId);
  if (o.status) q = q.where("issues.status", "=", o.status);
  if (o.q) {
    const pattern = `%${o.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where(
      sql<boolean>`(issues.title ilike ${pattern} or (issue_repo.full_name || '#' || issues.issue_number) ilike ${pattern})`,
    );
  }
  if (o.tab === "open") q = q.where(inOpenTab);
  if (o.tab === "closed") q = q.where(sql<boolean>`not ${inOpenTab}`);
  if (o.after)
    q = q.where(
      sql<boolean>`(issues.created_at, issues.id) < (${o.after.createdAt}::timestamptz, ${o.after.id}::uuid)`,
    );
  const rows = await q
    .orderBy("issues.created_at", "desc")
    .orderBy("issues.id", "desc")
    .limit(o.limit + 1)
    .execute();
  const page = rows.slice(0, o.limit).map(({ position, ...row }) => ({ position, issue: decodeIssue(row) }));
  const last = page.at(-1);
  return {
    issues: page.map((p) => p.issue),
    next: rows.length > o.limit && last ? { createdAt: last.position, id: last.issue.id } : null,
  };
}

/** How many of the user's issues each tab of the list holds, and how many are completed. */
export async function countOwned(db: Conn, userId: string): Promise<IssueCounts> {
  const row = await db
    .selectFrom("issues")
    .select([
      sql<string>`count(*)`.as("all"),
      sql<string>`count(*) filter (where ${inOpenTab})`.as("open"),
      sql<string>`count(*) filter (where issues.status in ('solved', 'pr_created'))`.as("completed"),
    ])
    .where("issues.user_id", "=", userId)
    .executeTakeFirstOrThrow();
  const all = Number(row.all);
  const open = Number(row.open);
  return { all, open, closed: all - open, completed: Number(row.completed) };
}

/**
 * The version of the user's issue list: Postgres bumps it in the same commit as any change to a row
 * the list reads (2026-11-29 migration), so a page built after reading version `v` is current for as
 * long as the version still reads `v`. "0" before the user's first change.
 */
export async function listVersion(db: Conn, userId: string): Promise<string> {
  const row = await db
    .selectFrom("issue_list_versions")
    .select("version")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row?.version ?? "0";
}
