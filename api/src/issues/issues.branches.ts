import { isFixloopBranch } from "@fixloop/contract";
import { githubForUser, toGithubError } from "@fixloop/runtime";
import { AppError } from "../http/errors";
import type { AppDeps } from "../deps";
import { githubUserContext } from "../auth/auth.cipher";
import { failureError } from "../jobs/jobs.run";

/** How long a repository's branch list is reused: long enough for a page's reloads, short enough to see a new branch. */
const BRANCHES_TTL_SECONDS = 60;
/** At most this many pages of 100 branches are listed (repositories with thousands of branches are cut, default kept). */
const MAX_PAGES = 10;

export interface BranchList {
  /** Branch names, the default branch first, then the others by name; Fixloop's own `fixloop/issue-…` branches left out. */
  branches: string[];
  defaultBranch: string;
  truncated: boolean;
}

export const branchErrors = {
  notFound: (branch: string, repo: string) =>
    new AppError(422, "branch.not_found", `The branch ${branch} does not exist in ${repo} on GitHub`),
};

/** The repository a pull request is opened on: the upstream of an imported issue, else the issue's own. */
export const baseRepoOf = (issue: { upstream_full_name: string | null; repo_full_name: string }) =>
  issue.upstream_full_name ?? issue.repo_full_name;

const split = (fullName: string) => {
  const [owner = "", repo = ""] = fullName.split("/");
  return { owner, repo };
};

/** The repository's branches from GitHub (paginated), cached briefly per user and repository. */
export async function listBranches(deps: AppDeps, userId: string, fullName: string): Promise<BranchList> {
  const key = `${deps.queues.prefix}:branches:${userId}:${fullName.toLowerCase()}`;
  const hit = await deps.redis.get(key);
  if (hit) return JSON.parse(hit) as BranchList;
  const r = split(fullName);
  try {
    const gh = (await githubForUser(githubUserContext(deps), userId)).client;
    const { data: repo } = await gh.rest.repos.get(r);
    const names: string[] = [];
    let truncated = false;
    for (let page = 1; ; page++) {
      const { data } = await gh.rest.repos.listBranches({ ...r, per_page: 100, page });
      names.push(...data.map((b) => b.name));
      if (data.length < 100) break;
      if (page === MAX_PAGES) {
        truncated = true;
        break;
      }
    }
    // A pull request's branch of Fixloop's is no base to solve against: it holds an earlier fix.
    const others = names
      .filter((n) => n !== repo.default_branch && !isFixloopBranch(n))
      .sort((a, b) => a.localeCompare(b));
    const list: BranchList = {
      branches: [repo.default_branch, ...others],
      defaultBranch: repo.default_branch,
      truncated,
    };
    await deps.redis.set(key, JSON.stringify(list), "EX", BRANCHES_TTL_SECONDS);
    return list;
  } catch (err) {
    throw failureError(toGithubError(err, "Repository"));
  }
}

/** The branch exists on GitHub now (its head is read, never the cached list): else 422 `branch.not_found`. */
export async function assertBranchExists(deps: AppDeps, userId: string, fullName: string, branch: string) {
  const r = split(fullName);
  try {
    const gh = (await githubForUser(githubUserContext(deps), userId)).client;
    await gh.rest.git.getRef({ ...r, ref: `heads/${branch}` });
  } catch (err) {
    if ((err as { status?: number }).status === 404) throw branchErrors.notFound(branch, fullName);
    throw failureError(toGithubError(err, "Repository"));
  }
}
