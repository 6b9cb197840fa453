import type { GithubClient } from "@fixloop/worker/contract";
import type { EtiquetteWarning, IssueRef } from "./contributions.schemas";

const mentions = (text: string | null | undefined, n: number) => new RegExp(`(^|[^\\w/])#${n}(?!\\d)`).test(text ?? "");

/** Reads the issue and its repository, and notes what a polite contributor should know before starting. */
export async function previewIssue(gh: GithubClient, ref: IssueRef) {
  const { data: repo } = await gh.rest.repos.get({ owner: ref.owner, repo: ref.repo });
  const { data: issue } = await gh.rest.issues.get({ owner: repo.owner.login, repo: repo.name, issue_number: ref.issueNumber });
  const pulls = await gh.rest.pulls.list({ owner: repo.owner.login, repo: repo.name, state: "open", per_page: 100 });
  const linked = pulls.data.filter((p) => mentions(p.body, issue.number) || mentions(p.title, issue.number));
  const assignees = (issue.assignees ?? []).map((a) => a.login);
  const warnings: EtiquetteWarning[] = [];
  if (issue.state === "closed") warnings.push({ code: "closed", message: "This issue is closed; a fix may no longer be wanted" });
  if (issue.locked) warnings.push({ code: "locked", message: "This issue is locked; maintainers have limited discussion" });
  if (assignees.length) warnings.push({ code: "assigned", message: `This issue is assigned to ${assignees.join(", ")}; ask before working on it` });
  if (linked.length) {
    warnings.push({ code: "linked_pull_request", message: `An open pull request already references this issue: ${linked.map((p) => `#${p.number}`).join(", ")}` });
  }
  return {
    isPullRequest: Boolean(issue.pull_request),
    repository: { fullName: repo.full_name, language: repo.language ?? null, htmlUrl: repo.html_url, description: repo.description, defaultBranch: repo.default_branch },
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
    warnings,
  };
}
