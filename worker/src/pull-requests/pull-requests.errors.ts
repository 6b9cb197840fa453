import { JobRefusedError } from "@fixloop/runtime";
import { type ChangeSizeBreach, type JobErrorCode, OPEN_PULL_REQUEST_MESSAGE } from "@fixloop/contract";

/**
 * A pull-request job failure the user can act on. It is unrecoverable (retrying cannot help) and
 * crosses BullMQ as a structured job failure, which the API answers with the same code.
 */
export class PullRequestError extends JobRefusedError {
  constructor(
    code: JobErrorCode,
    readonly detail: string,
  ) {
    super({ code, message: detail });
    this.name = "PullRequestError";
  }
}

export const prErrors = {
  baseBranchGone: (branch: string) =>
    new PullRequestError(
      "pull_request.base_branch_gone",
      `The base branch ${branch} no longer exists on GitHub; solve the issue again on another branch`,
    ),
  notApproved: (status: string) =>
    new PullRequestError(
      "pull_request.not_approved",
      `The solution is ${status}; approve it before opening a pull request`,
    ),
  notFound: () => new PullRequestError("pull_request.solution_not_found", "Solution not found"),
  denied: (path: string, reason: string) => new PullRequestError("pull_request.path_denied", `${path}: ${reason}`),
  size: (b: ChangeSizeBreach) => new PullRequestError(b.code, b.message),
  symlink: (path: string) =>
    new PullRequestError(
      "pull_request.symlink",
      `${path} is a symbolic link in the repository; changes through symlinks are refused`,
    ),
  empty: () => new PullRequestError("pull_request.empty", "The solution changes no files"),
  noWriteAccess: (repo: string) =>
    new PullRequestError(
      "pull_request.no_write_access",
      `You cannot push to ${repo}; authorize repository access or import the issue to contribute through a fork`,
    ),
  conflict: (detail: string) => new PullRequestError("pull_request.conflict", `conflict: ${detail}`),
  issueTaken: () =>
    new PullRequestError(
      "pull_request.conflict",
      "Another solution of this issue is approved; its pull request is opened instead",
    ),
  pullRequestOpen: () => new PullRequestError("pull_request.conflict_open", OPEN_PULL_REQUEST_MESSAGE),
  duplicate: () =>
    new PullRequestError(
      "pull_request.conflict_duplicate",
      "Another pull request record already uses this pull request number",
    ),
  branchMoved: (detail: string) => new PullRequestError("pull_request.branch_moved", detail),
  notOpen: (status: string) =>
    new PullRequestError(
      "pull_request.not_open",
      `The pull request is ${status}; a new revision is pushed only to an open pull request`,
    ),
  noFork: () => new PullRequestError("pull_request.no_fork", "This imported issue has no fork yet; import it again"),
  forkGone: (fork: string) =>
    new PullRequestError("pull_request.no_fork", `The fork ${fork} is gone from GitHub; import the issue again`),
  notAFork: (repo: string, upstream: string) =>
    new PullRequestError(
      "pull_request.not_a_fork",
      `${repo} is no longer a fork of ${upstream}, so Fixloop does not push to it; rename or delete it on GitHub and approve again to fork ${upstream} anew`,
    ),
};
