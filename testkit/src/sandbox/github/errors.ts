/** A GitHub-shaped error: the route throws it, the server's onError renders it. */
export class GithubError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly documentationUrl: string,
    readonly errors?: unknown[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): Record<string, unknown> {
    const body: Record<string, unknown> = { message: this.message };
    if (this.errors) body.errors = this.errors;
    body.documentation_url = this.documentationUrl;
    if (this.status >= 400) body.status = String(this.status);
    return body;
  }
}

const DOCS = "https://docs.github.com/rest";

export const githubErrors = {
  notFound: (doc = DOCS) => new GithubError(404, "Not Found", doc),
  badCredentials: () => new GithubError(401, "Bad credentials", DOCS),
  requiresAuth: (doc = DOCS) => new GithubError(401, "Requires authentication", doc),
  forbidden: (message: string, doc = DOCS) => new GithubError(403, message, doc),
  /** 422 with GitHub's `Validation Failed` + errors array shape. */
  validation: (errors: unknown[], doc = DOCS) => new GithubError(422, "Validation Failed", doc, errors),
  unprocessable: (message: string, doc = DOCS) => new GithubError(422, message, doc),
  conflict: (message: string, doc = DOCS) => new GithubError(409, message, doc),
  badRequest: (message: string, doc = DOCS) => new GithubError(400, message, doc),
  invalidField: (resource: string, field: string, doc = DOCS) =>
    new GithubError(422, "Validation Failed", doc, [{ resource, field, code: "invalid" }]),
  missingField: (resource: string, field: string, doc = DOCS) =>
    new GithubError(422, 'Invalid request.\n\n"' + field + "\" wasn't supplied.", doc),
};

export const DOCS_URL = {
  repos: "https://docs.github.com/rest/repos/repos",
  issues: "https://docs.github.com/rest/issues/issues",
  pulls: "https://docs.github.com/rest/pulls/pulls",
  refs: "https://docs.github.com/rest/git/refs",
  trees: "https://docs.github.com/rest/git/trees",
  blobs: "https://docs.github.com/rest/git/blobs",
  commits: "https://docs.github.com/rest/git/commits",
  contents: "https://docs.github.com/rest/repos/contents",
  forks: "https://docs.github.com/rest/repos/forks",
  branches: "https://docs.github.com/rest/branches/branches",
  users: "https://docs.github.com/rest/users/users",
  rateLimits: "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
  redirects: "https://docs.github.com/rest/guides/best-practices-for-using-the-rest-api#follow-redirects",
};
