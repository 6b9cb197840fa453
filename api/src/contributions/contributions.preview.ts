import { checkContribution, type GithubClient } from "@fixloop/runtime";
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
  const findings = issue.pull_request
    ? []
    : await checkContribution(gh, { owner: repo.owner.login, repo: repo.name, issue, login });
  return {
    isPullRequest: Boolean(issue.pull_request),
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
  };
}
