import { AppError } from "../http/errors";

export const solutionErrors = {
  baseMismatch: (made: string, asked: string) =>
    new AppError(
      409,
      "solution.base_branch_mismatch",
      `This solution was made and tested against ${made}; solve the issue again on ${asked} to open a pull request against it`,
    ),
  notFound: () => new AppError(404, "solution.not_found", "Solution not found"),
  notPending: (status: string) =>
    new AppError(409, "solution.not_pending", `The solution is ${status} and can no longer be changed`),
  stale: (filename: string) =>
    new AppError(
      409,
      "solution.stale",
      `${filename} changed since you opened it; reload the solution and apply your edit again`,
    ),
  unknownFile: (filename: string) =>
    new AppError(400, "solution.unknown_file", `${filename} is not part of this solution`),
  tooLarge: (reason: string) => new AppError(422, "solution.too_large", reason),
  deniedPath: (filename: string, reason: string) => new AppError(400, "solution.path_denied", `${filename}: ${reason}`),
  runOpen: () => new AppError(409, "run.already_running", "A run for this issue is already in progress"),
  refining: () =>
    new AppError(
      409,
      "solution.refining",
      "A refinement of this solution is running; wait for it to finish or cancel it, then decide",
    ),
  refiningEdit: () =>
    new AppError(
      409,
      "solution.refining",
      "A refinement of this solution is running and would replace this change; wait for it to finish or cancel it, then change the files",
    ),
  issueTaken: () =>
    new AppError(
      409,
      "solution.issue_taken",
      "Another solution of this issue is approved and its pull request is being opened; this one stays pending",
    ),
  openingPullRequest: () =>
    new AppError(
      409,
      "solution.opening_pull_request",
      "This solution is approved and its pull request is being opened; it can be deleted only if that fails",
    ),
  hasPullRequest: () =>
    new AppError(409, "solution.has_pull_request", "A pull request was already opened from this solution"),
};
