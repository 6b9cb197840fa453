import { AppError } from "../http/errors";

export const prErrors = {
  notFound: () => new AppError(404, "pull_request.not_found", "Pull request not found"),
  notOpen: (status: string) =>
    new AppError(
      409,
      "pull_request.not_open",
      `The pull request is ${status}; its review can no longer be addressed on the same branch`,
    ),
  emptySelection: () =>
    new AppError(
      400,
      "review.empty_selection",
      "Choose at least one open review comment to address (or all open ones when a check is failing)",
    ),
  unknownComment: (id: string) =>
    new AppError(
      400,
      "review.unknown_comment",
      `Review comment ${id.slice(0, 40)} is not an open review comment of this pull request (unknown, a reply, or already addressed)`,
    ),
  nothingToPush: (revision: number) =>
    new AppError(
      409,
      "pull_request.up_to_date",
      `Revision ${revision} is already on the pull request's branch; address the review to make a new one`,
    ),
  runOpen: () =>
    new AppError(409, "run.already_running", "A refinement of this solution is still running; wait for it to finish"),
};
