import type { Issue } from "@fixloop/db";
import type { GithubClient } from "@fixloop/runtime";
import { prErrors } from "./pull-requests.errors";
import { splitRepo, type RepoRef } from "./pull-requests.tree";

export interface PullRequestTarget {
  /** Repository the pull request is opened on, and its default branch. */
  base: RepoRef & { fullName: string; branch: string };
  /** Repository the branch is pushed to: the same one, or the user's fork of it. */
  head: RepoRef & { fullName: string };
  /** Commit the new branch starts from: the base's default branch head. */
  baseSha: string;
  /** Repository holding the issue, for the Fixes line. */
  issueRepo: string;
}

async function defaultBranchHead(gh: GithubClient, r: RepoRef) {
  const repo = await gh.rest.repos.get({ ...r });
  const ref = await gh.rest.git.getRef({ ...r, ref: `heads/${repo.data.default_branch}` });
  return { repo: repo.data, branch: repo.data.default_branch, sha: ref.data.object.sha };
}

/**
 * Own repository: branch and pull request on it. Imported issue: bring the fork up to date
 * with upstream, push to the fork, open the pull request on upstream.
 */
export async function resolveTarget(gh: GithubClient, issue: Issue): Promise<PullRequestTarget> {
  if (!issue.is_imported) {
    const base = splitRepo(issue.repo_full_name);
    const head = await defaultBranchHead(gh, base);
    if (head.repo.permissions && !head.repo.permissions.push) throw prErrors.noWriteAccess(issue.repo_full_name);
    const fullName = head.repo.full_name;
    return {
      base: { ...base, fullName, branch: head.branch },
      head: { ...base, fullName },
      baseSha: head.sha,
      issueRepo: fullName,
    };
  }
  const upstreamName = issue.upstream_full_name ?? issue.repo_full_name;
  if (!issue.fork_full_name) throw prErrors.noFork();
  const upstream = splitRepo(upstreamName);
  const fork = splitRepo(issue.fork_full_name);
  const up = await defaultBranchHead(gh, upstream);
  const forkRepo = await gh.rest.repos.get({ ...fork });
  try {
    await gh.rest.repos.mergeUpstream({ ...fork, branch: forkRepo.data.default_branch });
  } catch (err) {
    // A fork whose default branch diverged cannot fast-forward; the branch still starts from upstream's head.
    if ((err as { status?: number }).status !== 409) throw err;
  }
  return {
    base: { ...upstream, fullName: up.repo.full_name, branch: up.branch },
    head: { ...fork, fullName: forkRepo.data.full_name },
    baseSha: up.sha,
    issueRepo: up.repo.full_name,
  };
}
