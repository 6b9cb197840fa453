import { issues, type Db } from "@fixloop/db";

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

export function issueColumns(i: GithubIssue): issues.GithubIssueColumns {
  return {
    github_id: i.id,
    issue_number: i.number,
    title: i.title,
    body: i.body ?? null,
    labels: labelNames(i),
    state: i.state,
    html_url: i.html_url,
    author_login: i.user?.login ?? null,
    is_locked: i.locked === true,
    assignees: (i.assignees ?? []).map((a) => a.login),
    github_created_at: i.created_at,
    github_updated_at: i.updated_at,
  };
}

/** Inserts or refreshes issues of one repository (see `issues.upsertSynced`), 200 rows a statement. */
export async function upsertIssues(
  db: Db,
  userId: string,
  repositoryId: string | null,
  repoFullName: string,
  found: GithubIssue[],
) {
  for (let i = 0; i < found.length; i += 200) {
    await issues.upsertSynced(
      db,
      userId,
      { id: repositoryId, fullName: repoFullName },
      found.slice(i, i + 200).map(issueColumns),
    );
  }
}
