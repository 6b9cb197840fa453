import { sql } from "kysely";
import type { Db } from "@fixloop/db";

/** The fields of GitHub's issue object we keep. */
export interface GithubIssue {
  id: number;
  number: number;
  title: string;
  body?: string | null;
  state: string;
  html_url: string;
  locked?: boolean;
  user?: { login: string } | null;
  labels?: Array<string | { name?: string | null }>;
  assignees?: Array<{ login: string }> | null;
  pull_request?: unknown;
  created_at: string;
  updated_at: string;
}

export const labelNames = (i: GithubIssue): string[] =>
  (i.labels ?? []).map((l) => (typeof l === "string" ? l : (l.name ?? ""))).filter(Boolean);

export function issueColumns(i: GithubIssue) {
  return {
    github_id: i.id,
    issue_number: i.number,
    title: i.title,
    body: i.body ?? null,
    labels: JSON.stringify(labelNames(i)),
    state: i.state,
    html_url: i.html_url,
    author_login: i.user?.login ?? null,
    is_locked: i.locked === true,
    assignees: JSON.stringify((i.assignees ?? []).map((a) => a.login)),
    github_created_at: i.created_at,
    github_updated_at: i.updated_at,
  };
}

/**
 * Inserts or refreshes issues of one repository. GitHub's state moves an untouched issue between
 * open and closed; statuses Fixloop set itself (analyzing, solved, pr_created, failed) are kept.
 */
export async function upsertIssues(
  db: Db,
  userId: string,
  repositoryId: string | null,
  repoFullName: string,
  issues: GithubIssue[],
) {
  for (let i = 0; i < issues.length; i += 200) {
    const rows = issues.slice(i, i + 200).map((issue) => ({
      user_id: userId,
      repository_id: repositoryId,
      repo_full_name: repoFullName,
      status: issue.state === "closed" ? ("closed" as const) : ("open" as const),
      ...issueColumns(issue),
    }));
    await db
      .insertInto("issues")
      .values(rows)
      .onConflict((oc) =>
        oc.columns(["user_id", "repo_full_name", "issue_number"]).doUpdateSet((eb) => ({
          repository_id: sql`coalesce(excluded.repository_id, issues.repository_id)`,
          github_id: eb.ref("excluded.github_id"),
          title: eb.ref("excluded.title"),
          body: eb.ref("excluded.body"),
          labels: eb.ref("excluded.labels"),
          state: eb.ref("excluded.state"),
          html_url: eb.ref("excluded.html_url"),
          author_login: eb.ref("excluded.author_login"),
          is_locked: eb.ref("excluded.is_locked"),
          assignees: eb.ref("excluded.assignees"),
          github_created_at: eb.ref("excluded.github_created_at"),
          github_updated_at: eb.ref("excluded.github_updated_at"),
          status: sql`case
            when excluded.state = 'closed' and issues.status in ('open', 'pending') then 'closed'
            when excluded.state = 'open' and issues.status = 'closed' then 'open'
            else issues.status end`,
          // A sync that finds the issue unchanged on GitHub leaves it out of "recently changed".
          updated_at: sql`case when excluded.github_updated_at is distinct from issues.github_updated_at then now() else issues.updated_at end`,
        })),
      )
      .execute();
  }
}

export async function countIssues(db: Db, userId: string, repoFullName: string): Promise<number> {
  const row = await db
    .selectFrom("issues")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", userId)
    .where("repo_full_name", "=", repoFullName)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
