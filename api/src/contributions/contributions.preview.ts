import { checkContribution, findFork, type GithubClient } from "@fixloop/runtime";
import type { IssueRef } from "./contributions.schemas";

/** Reads the issue and its repository, and checks what the maintainers allow before anyone starts. */
export async function previewIssue(gh: GithubClient, login: string, ref: IssueRef) {
  const { data: repo } = await gh.rest.repos.get({ owner: ref.owner, repo: ref.repo });
  const { data: issue } = await gh.rest.issues.get({
    owner: repo.owner.login,
    repo: repo.name,
    issue_number: ref.issueNumber,
  });
  const assignees = (issue.assignees ?? []).map((a) => a.login);
  const own = repo.owner.login.toLowerCase() === login.toLowerCase();
  const [findings, fork] = await Promise.all([
    issue.pull_request ? [] : checkContribution(gh, { owner: repo.owner.login, repo: repo.name, issue, login }),
    own || issue.pull_request ? null : findFork(gh, login, repo),
  ]);
  return {
    isPullRequest: Boolean(issue.pull_request),
    /** GitHub's id of the repository: finds the user's import of the issue whatever its name was then. */
    repositoryId: repo.id,
    repository: {
      fullName: repo.full_name,
      language: repo.language ?? null,
      htmlUrl: repo.html_url,
      description: repo.description,
      defaultBranch: repo.default_branch,
    },
    issue: {
      title: issue.title,
      number: issue.number,
      labels: issue.labels.map((l) => (typeof l === "string" ? l : (l.name ?? ""))).filter(Boolean),
      body: issue.body ?? null,
      htmlUrl: issue.html_url,
      state: issue.state,
      locked: issue.locked,
      assignees,
    },
    findings,
    /** Where the work happens: the user's own repository, their existing fork, or a fork the import creates. */
    fork: own
      ? { state: "own" as const, fullName: repo.full_name }
      : fork
        ? { state: "exists" as const, fullName: fork.full_name }
        : { state: "required" as const, fullName: null },
  };
}
