import { AppError } from "../http/errors";

/** Why a manifest flow ended without an App; the callback sends the operator to /ops/github-app with the code. */
export type ManifestFailure =
  | "github_app.state_invalid"
  | "github_app.state_reused"
  | "github_app.state_expired"
  | "github_app.code_invalid"
  | "github_app.conversion_invalid"
  | "github_app.permissions_exceeded";

export const githubAppErrors = {
  /** The callback's own failures are redirects; this one is for a request GitHub never sent. */
  missingParams: () =>
    new AppError(400, "github_app.callback_invalid", "GitHub's redirect carries a code and the state Fixloop sent"),
};
