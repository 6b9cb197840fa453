import type { LinkedPullRequest } from "@fixloop/contract";

/** A pull request as the issues list returns it (GitHub lists pull requests among issues). */
export interface ListedPull {
  number: number;
  title: string;
  body?: string | null;
  state: string;
  html_url: string;
  draft?: boolean;
  user?: { login: string } | null;
  pull_request?: { html_url?: string | null } | unknown;
}

/**
 * The open pull requests of a repository that reference its issues by number (`#12`, `fixes #12`,
 * or the issue's URL), keyed by issue number. Pull requests from forks are listed here too.
 */
export function linkedPullsByIssue(
  repoFullName: string,
  pulls: ListedPull[],
  issueNumbers: number[],
): Map<number, LinkedPullRequest[]> {
  const wanted = new Set(issueNumbers);
  const byIssue = new Map<number, LinkedPullRequest[]>();
  const repoPath = repoFullName.toLowerCase();
  for (const p of pulls) {
    if (p.state !== "open") continue;
    const text = `${p.title}\n${p.body ?? ""}`;
    const numbers = new Set<number>();
    for (const m of text.matchAll(/(?:^|[^\w/])(?:([\w.-]+\/[\w.-]+))?#(\d+)(?!\d)/g)) {
      if (m[1] && m[1].toLowerCase() !== repoPath) continue;
      numbers.add(Number(m[2]));
    }
    for (const m of text.matchAll(/github\.com\/([\w.-]+\/[\w.-]+)\/issues\/(\d+)(?!\d)/gi)) {
      if (m[1]?.toLowerCase() === repoPath) numbers.add(Number(m[2]));
    }
    for (const n of numbers) {
      if (!wanted.has(n) || n === p.number) continue;
      const list = byIssue.get(n) ?? [];
      list.push({
        number: p.number,
        htmlUrl: p.html_url,
        login: p.user?.login ?? "ghost",
        repoFullName,
        draft: p.draft === true,
      });
      byIssue.set(n, list);
    }
  }
  return byIssue;
}
