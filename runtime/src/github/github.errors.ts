import type { JobErrorCode } from "@fixloop/contract";

/** A GitHub failure translated to our vocabulary; `code` is dotted like the API's error codes. */
export class GithubError extends Error {
  constructor(
    readonly code: JobErrorCode,
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "GithubError";
  }
}

interface OctokitLikeError {
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | undefined> };
}

export const REAUTHORIZE_MESSAGE = "Repository access was revoked: authorize again";

const scopeList = (header: string | undefined): string[] => (header ?? "").split(/[\s,]+/).filter(Boolean);

/**
 * A write GitHub refused because the token lacks the repository grant: 401 (the token itself was
 * revoked) or a 403/404 whose `X-Accepted-OAuth-Scopes` names none of the token's `X-OAuth-Scopes`.
 */
function missingGrant(status: number, headers: Record<string, string | undefined>): boolean {
  if (status === 401) return true;
  if (status !== 403 && status !== 404) return false;
  const accepted = scopeList(headers["x-accepted-oauth-scopes"]);
  const held = scopeList(headers["x-oauth-scopes"]);
  return accepted.length > 0 && !accepted.some((s) => held.includes(s));
}

/**
 * Maps an Octokit RequestError (or anything) to a GithubError with a message a user can act on.
 * With `write`, a refusal caused by a missing repository grant becomes `github.reauthorize_required`.
 */
export function toGithubError(err: unknown, what = "Resource", opts: { write?: boolean } = {}): GithubError {
  if (err instanceof GithubError) return err;
  const e = err as OctokitLikeError;
  const status = typeof e?.status === "number" ? e.status : 0;
  const headers = e?.response?.headers ?? {};
  if (opts.write && missingGrant(status, headers))
    return new GithubError("github.reauthorize_required", REAUTHORIZE_MESSAGE, 403);
  if (
    (status === 403 || status === 429) &&
    (headers["x-ratelimit-remaining"] === "0" || headers["retry-after"] || /rate limit/i.test(e.message ?? ""))
  ) {
    const reset = Number(headers["x-ratelimit-reset"]);
    const when = Number.isFinite(reset) && reset > 0 ? ` until ${new Date(reset * 1000).toISOString()}` : "";
    return new GithubError("github.rate_limited", `GitHub rate limit exhausted${when}; try again later`, 429);
  }
  if (status === 401)
    return new GithubError("github.unauthorized", "GitHub rejected the stored access token; sign in again", 401);
  if (status === 404) return new GithubError("github.not_found", `${what} not found on GitHub`, 404);
  if (status === 403) return new GithubError("github.forbidden", "GitHub refused access to this resource", 403);
  if (status === 422)
    return new GithubError("github.invalid", `GitHub rejected the request: ${e.message ?? "invalid input"}`, 422);
  return new GithubError("github.unavailable", "GitHub is unavailable, try again shortly", 502);
}

// The client already waited out short rate limits; a long one is not worth a job retry.
const RETRYABLE = new Set(["github.unavailable"]);
export const isRetryable = (err: GithubError) => RETRYABLE.has(err.code);
