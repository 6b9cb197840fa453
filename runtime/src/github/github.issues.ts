import type { issues } from "@fixloop/db";

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

/** Whether the issue carries `label` (GitHub compares label names case-insensitively). */
export const hasLabel = (i: GithubIssue, label: string): boolean =>
  labelNames(i).some((l) => l.toLowerCase() === label.toLowerCase());

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
