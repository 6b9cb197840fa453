import type { GithubClient } from "@fixloop/runtime";
import { isTestPath, type FileChange } from "@fixloop/contract";

/** A past issue that a merged pull request closed, with what that pull request changed. */
export interface FixedIssue {
  issueNumber: number;
  title: string;
  body: string;
  pullNumber: number;
  baseSha: string;
  headSha: string;
  htmlUrl: string;
  fixFiles: string[];
  testFiles: string[];
  /** Every file the pull request changed, and how (`added`, `modified`, `removed`, …). */
  changes: { filename: string; status: string }[];
}

/** GitHub's closing keywords (`Fixes #12`, `closes owner/repo#12`, `resolved https://github.com/o/r/issues/12`). */
const CLOSING =
  /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+(?:([\w.-]+\/[\w.-]+)#|https:\/\/github\.com\/([\w.-]+\/[\w.-]+)\/issues\/)?#?(\d+)\b/gi;
/** Merged pull requests looked at, newest first; past that the repository has too few linked fixes. */
const MAX_PULL_PAGES = 3;

/** The issue numbers of this repository that a pull request's title and body close. */
export function closingReferences(repoFullName: string, text: string): number[] {
  const self = repoFullName.toLowerCase();
  const out = new Set<number>();
  for (const m of text.matchAll(CLOSING)) {
    const other = (m[1] ?? m[2])?.toLowerCase();
    if (other && other !== self) continue;
    out.add(Number(m[3]));
  }
  return [...out];
}

/**
 * Up to `limit` recently closed issues of `owner/repo` that a merged pull request fixed, newest
 * merge first: each merged pull request's closing references are followed to issues that are
 * closed as completed (not pull requests, not "not planned"); each issue counts once.
 */
export async function recentlyFixedIssues(
  gh: GithubClient,
  owner: string,
  repo: string,
  limit: number,
  signal: AbortSignal,
): Promise<FixedIssue[]> {
  const request = { signal };
  const found: FixedIssue[] = [];
  const seen = new Set<number>();
  for (let page = 1; page <= MAX_PULL_PAGES && found.length < limit; page++) {
    const { data: pulls } = await gh.rest.pulls.list({
      owner,
      repo,
      state: "closed",
      sort: "updated",
      direction: "desc",
      per_page: 100,
      page,
      request,
    });
    const merged = pulls
      .filter((p) => p.merged_at)
      .sort((a, b) => (b.merged_at ?? "").localeCompare(a.merged_at ?? "") || b.number - a.number);
    for (const pull of merged) {
      if (found.length >= limit) break;
      for (const n of closingReferences(`${owner}/${repo}`, `${pull.title}\n${pull.body ?? ""}`)) {
        if (found.length >= limit || seen.has(n) || n === pull.number) continue;
        seen.add(n);
        const issue = await gh.rest.issues.get({ owner, repo, issue_number: n, request }).then(
          (r) => r.data,
          () => null,
        );
        if (!issue || issue.pull_request || issue.state !== "closed" || issue.state_reason === "not_planned") continue;
        const files = await gh.paginate(gh.rest.pulls.listFiles, {
          owner,
          repo,
          pull_number: pull.number,
          per_page: 100,
          request,
        });
        // The base side of a change: a file the pull request added did not exist to be found.
        const changed = files.filter((f) => f.status !== "added").map((f) => f.filename);
        const source = changed.filter((p) => !isTestPath(p));
        const fixFiles = source.length ? source : changed;
        // Only new files: nothing at the base commit could have been found.
        if (!fixFiles.length) continue;
        found.push({
          issueNumber: n,
          title: issue.title,
          body: issue.body ?? "",
          pullNumber: pull.number,
          baseSha: pull.base.sha,
          headSha: pull.head.sha,
          htmlUrl: issue.html_url,
          fixFiles,
          testFiles: files.filter((f) => isTestPath(f.filename)).map((f) => f.filename),
          changes: files.map((f) => ({ filename: f.filename, status: f.status })),
        });
      }
    }
    if (pulls.length < 100) break;
  }
  return found;
}

/** The files of `changes` as they read at `sha` (a pull request's head), as changes to apply to its base. */
export async function filesAt(
  gh: GithubClient,
  owner: string,
  repo: string,
  sha: string,
  changes: { filename: string; status: string }[],
  signal: AbortSignal,
): Promise<FileChange[]> {
  const out: FileChange[] = [];
  for (const c of changes) {
    if (c.status === "removed") {
      out.push({ filename: c.filename, action: "delete", content: "", originalContent: "" });
      continue;
    }
    const { data } = await gh.rest.repos.getContent({ owner, repo, path: c.filename, ref: sha, request: { signal } });
    if (Array.isArray(data) || data.type !== "file" || !("content" in data)) continue;
    const content = Buffer.from(data.content, "base64").toString("utf8");
    out.push({
      filename: c.filename,
      action: c.status === "added" ? "create" : "modify",
      content,
      originalContent: "",
    });
  }
  return out;
}
