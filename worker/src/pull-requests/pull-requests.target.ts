import type { Issue } from "@fixloop/db";
import type { GithubClient } from "@fixloop/runtime";
import { prErrors } from "./pull-requests.errors";
import { splitRepo, type RepoRef } from "./pull-requests.tree";

export interface PullRequestTarget {
  /** Repository the pull request is opened on, and its base branch (the solution's, else the default branch). */
  base: RepoRef & { fullName: string; branch: string; github: GithubRepo };
  /** Repository the branch is pushed to: the same one, or the user's fork of it. */
  head: RepoRef & { fullName: string; github: GithubRepo };
  /** Commit the new branch starts from: the base branch head. */
  baseSha: string;
  /** Repository holding the issue, for the Fixes line. */
  issueRepo: string;
}

async function branchHead(gh: GithubClient, r: RepoRef, baseBranch: string | undefined) {
  const repo = await gh.rest.repos.get({ ...r });
  const branch = baseBranch ?? repo.data.default_branch;
  const ref = await gh.rest.git.getRef({ ...r, ref: `heads/${branch}` }).catch((err: unknown) => {
    if ((err as { status?: number }).status === 404) throw prErrors.baseBranchGone(branch);
    throw err;
  });
  return { repo: repo.data, branch, sha: ref.data.object.sha };
}

async function syncFork(gh: GithubClient, fork: RepoRef, branch: string) {
  try {
    await gh.rest.repos.mergeUpstream({ ...fork, branch });
  } catch (err) {
    // A fork whose branch diverged cannot fast-forward (409), or lacks it (422); the branch still starts from upstream's head.
    const status = (err as { status?: number }).status;
    if (status !== 409 && status !== 422) throw err;
  }
}

export type GithubRepo = Awaited<ReturnType<GithubClient["rest"]["repos"]["get"]>>["data"];

/**
 * The repository as GitHub names it now. A repository renamed or transferred since Fixloop last
 * heard of it still answers reads under its old name (GitHub redirects them), but a write there is
 * redirected too and never happens: writes go to this name.
 */
const currentName = (r: GithubRepo): RepoRef => ({ owner: r.owner.login, repo: r.name });

/**
 * The repository Fixloop knows as `fullName`, under the name GitHub gives it now (see
 * `currentName`); null when GitHub answers 404.
 */
export async function currentRepo(gh: GithubClient, fullName: string): Promise<RepoRef | null> {
  const repo = await repoOrGone(gh, splitRepo(fullName));
  return repo && currentName(repo);
}

/** The repository, or null when GitHub answers 404 (deleted, or renamed with no redirect left). */
async function repoOrGone(gh: GithubClient, r: RepoRef): Promise<GithubRepo | null> {
  try {
    return (await gh.rest.repos.get({ ...r })).data;
  } catch (err) {
    if ((err as { status?: number }).status === 404) return null;
    throw err;
  }
}

/**
 * Forks `upstream` again after the remembered fork `gone` was found gone, waits for it, remembers
 * it; answers the new fork's full name.
 */
export type ForkAgain = (gone: string, upstream: GithubRepo) => Promise<string>;

/**
 * The repository with GitHub id `githubId` under the name GitHub gives it now (see `currentName`),
 * read by its id: a repository that took a former name of it is never mistaken for it. Null when
 * GitHub answers 404 (deleted).
 */
export async function currentRepoById(gh: GithubClient, githubId: number | string): Promise<RepoRef | null> {
  try {
    const { data } = await gh.request("GET /repositories/{repository_id}", { repository_id: Number(githubId) });
    return currentName(data as GithubRepo);
  } catch (err) {
    if ((err as { status?: number }).status === 404) return null;
    throw err;
  }
}

/**
 * Own repository: branch and pull request on it. Imported issue: bring the fork up to date
 * with upstream, push to the fork, open the pull request on upstream. A deleted fork is made
 * again with `forkAgain`; a repository under the fork's name that is no fork of upstream (detached,
 * or another repository) is refused, never pushed to.
 */
export async function resolveTarget(
  gh: GithubClient,
  issue: Issue,
  baseBranch: string | undefined,
  forkAgain: ForkAgain,
): Promise<PullRequestTarget> {
  if (!issue.is_imported) {
    const head = await branchHead(gh, splitRepo(issue.repo_full_name), baseBranch);
    if (head.repo.permissions && !head.repo.permissions.push) throw prErrors.noWriteAccess(issue.repo_full_name);
    const base = currentName(head.repo);
    const fullName = head.repo.full_name;
    return {
      base: { ...base, fullName, branch: head.branch, github: head.repo },
      head: { ...base, fullName, github: head.repo },
      baseSha: head.sha,
      issueRepo: fullName,
    };
  }
  const upstreamName = issue.upstream_full_name ?? issue.repo_full_name;
  if (!issue.fork_full_name) throw prErrors.noFork();
  const up = await branchHead(gh, splitRepo(upstreamName), baseBranch);
  let forkName = issue.fork_full_name;
  let forkRepo = await repoOrGone(gh, splitRepo(forkName));
  if (!forkRepo) {
    forkName = await forkAgain(forkName, up.repo);
    forkRepo = await repoOrGone(gh, splitRepo(forkName));
    if (!forkRepo) throw prErrors.forkGone(forkName);
  }
  // An issue imported from the user's own repository has that repository as its head; any other must be upstream's fork.
  const own = forkRepo.id === up.repo.id;
  const lineage = [forkRepo.parent?.id, forkRepo.source?.id];
  if (!own && !(forkRepo.fork && lineage.includes(up.repo.id)))
    throw prErrors.notAFork(forkRepo.full_name, up.repo.full_name);
  // The names GitHub answers with: a renamed fork is pushed to under its new name.
  const fork = currentName(forkRepo);
  await syncFork(gh, fork, forkRepo.default_branch);
  // A non-default base: the fork's copy of that branch brings its commits within reach of the new branch.
  if (up.branch !== forkRepo.default_branch) await syncFork(gh, fork, up.branch);
  return {
    base: { ...currentName(up.repo), fullName: up.repo.full_name, branch: up.branch, github: up.repo },
    head: { ...fork, fullName: forkRepo.full_name, github: forkRepo },
    baseSha: up.sha,
    issueRepo: up.repo.full_name,
  };
}
