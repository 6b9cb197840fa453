/**
 * The routes each OpenAPI contract file validates (testkit/src/sandbox/github/openapi.<area>.contract.test.ts).
 * Each file checks its own entry after a full run; the coverage test reads them all, so it stays right
 * however the files are spread over workers.
 */
export const VALIDATED = {
  repos: [
    "GET /user",
    "GET /user/emails",
    "GET /user/repos",
    "GET /users/{username}",
    "GET /users/{username}/repos",
    "GET /rate_limit",
    "GET /repos/{owner}/{repo}",
    "DELETE /repos/{owner}/{repo}",
    "GET /repos/{owner}/{repo}/labels",
    "GET /repos/{owner}/{repo}/branches",
    "GET /repos/{owner}/{repo}/git/ref/{ref}",
    "GET /repos/{owner}/{repo}/issues",
    "GET /repos/{owner}/{repo}/issues/{issue_number}",
    "GET /repos/{owner}/{repo}/forks",
    "POST /repos/{owner}/{repo}/forks",
    "GET /repos/{owner}/{repo}/tarball/{ref}",
  ],
  git: [
    "POST /repos/{owner}/{repo}/forks",
    "GET /repos/{owner}/{repo}",
    "GET /repos/{owner}/{repo}/forks",
    "GET /repos/{owner}/{repo}/git/ref/{ref}",
    "GET /repos/{owner}/{repo}/git/matching-refs/{ref}",
    "GET /repos/{owner}/{repo}/git/commits/{commit_sha}",
    "GET /repos/{owner}/{repo}/git/trees/{tree_sha}",
    "GET /repos/{owner}/{repo}/contents/{path}",
    "POST /repos/{owner}/{repo}/git/blobs",
    "GET /repos/{owner}/{repo}/git/blobs/{file_sha}",
    "POST /repos/{owner}/{repo}/git/trees",
    "POST /repos/{owner}/{repo}/git/commits",
    "POST /repos/{owner}/{repo}/git/refs",
    "PATCH /repos/{owner}/{repo}/git/refs/{ref}",
    "DELETE /repos/{owner}/{repo}/git/refs/{ref}",
  ],
  pulls: [
    "POST /repos/{owner}/{repo}/pulls",
    "GET /repos/{owner}/{repo}/pulls",
    "GET /repos/{owner}/{repo}/pulls/{pull_number}",
    "PATCH /repos/{owner}/{repo}/pulls/{pull_number}",
    "GET /repos/{owner}/{repo}/issues/{issue_number}",
    "POST /repos/{owner}/{repo}/pulls/{pull_number}/comments",
    "POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies",
    "GET /repos/{owner}/{repo}/pulls/{pull_number}/comments",
    "POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews",
    "GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews",
    "POST /repos/{owner}/{repo}/check-runs",
    "GET /repos/{owner}/{repo}/commits/{ref}/check-runs",
    "GET /repos/{owner}/{repo}/check-runs/{check_run_id}",
    "GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs",
    "PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge",
    "POST /repos/{owner}/{repo}/merge-upstream",
    "GET /repos/{owner}/{repo}/pulls/{pull_number}/files",
    "GET /repos/{owner}/{repo}/issues/{issue_number}/timeline",
    "GET /repos/{owner}/{repo}/contents/{path}",
  ],
  issues: [
    "POST /repos/{owner}/{repo}/issues/{issue_number}/labels",
    "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
    "GET /repos/{owner}/{repo}/issues/{issue_number}/comments",
    "GET /repos/{owner}/{repo}/issues/{issue_number}",
    "GET /repos/{owner}/{repo}/issues",
  ],
  orgs: ["GET /user/repos", "GET /repos/{owner}/{repo}"],
  collaborators: ["GET /repos/{owner}/{repo}/collaborators/{username}/permission"],
  apps: [
    "GET /app",
    "GET /app/installations",
    "GET /app/installations/{installation_id}",
    "POST /app/installations/{installation_id}/access_tokens",
    "GET /installation/repositories",
    "GET /user/installations",
    "GET /user/installations/{installation_id}/repositories",
    "POST /app-manifests/{code}/conversions",
  ],
  redirects: [
    "GET /repos/{owner}/{repo}",
    "GET /repos/{owner}/{repo}/issues",
    "GET /repos/{owner}/{repo}/issues/{issue_number}",
    "GET /repositories/{repository_id}",
    "GET /repositories/{repository_id}/issues",
    "GET /repositories/{repository_id}/issues/{issue_number}",
    "GET /repositories/{repository_id}/branches",
    "GET /repositories/{repository_id}/contents/{path}",
    "POST /repos/{owner}/{repo}/forks",
  ],
} as const satisfies Record<string, readonly string[]>;

export type ContractArea = keyof typeof VALIDATED;

/**
 * Routes the stand-in serves that GitHub's OpenAPI description has no operation for, so no
 * schema to validate against: each is named here on purpose, and a new one fails the coverage test
 * until it is validated or added.
 */
export const UNDESCRIBED = [
  // OAuth web flow on github.com, not the REST API.
  "GET /login/oauth/authorize",
  "POST /login/oauth/authorize",
  "POST /login/oauth/access_token",
  // Listing a repository's root and all its refs: aliases GitHub answers but describes only with a path or ref.
  "GET /repos/{owner}/{repo}/contents",
  "GET /repos/{owner}/{repo}/contents/",
  "GET /repos/{owner}/{repo}/git/refs",
  "GET /repos/{owner}/{repo}/git/refs/",
  "GET /repos/{owner}/{repo}/git/refs/{ref}",
  // raw.githubusercontent.com and the github.com pages behind html_url and avatar_url.
  "GET /raw/{owner}/{repo}/{ref}/{path}",
  // codeload.github.com, where the tarball endpoint redirects.
  "GET /_codeload/{owner}/{repo}/legacy.tar.gz/{ref}",
  // GitHub Actions' log host, where the job-log endpoint redirects.
  "GET /_actions-logs/jobs/{job_id}",
  "GET /avatars/u/{id}",
  "GET /{login}",
  "GET /{owner}/{repo}",
  "GET /{owner}/{repo}/issues/{number}",
  "GET /{owner}/{repo}/pull/{number}",
  // github.com's GitHub App pages: installing an App, and the manifest flow's "Create GitHub App".
  "GET /apps/{slug}/installations/new",
  "POST /apps/{slug}/installations/new",
  "GET /settings/installations/{installation_id}",
  "GET /organizations/{org}/settings/installations/{installation_id}",
  "POST /settings/apps/new",
  "POST /settings/apps/new/confirm",
  "POST /organizations/{org}/settings/apps/new",
  // The stand-in's own reviewer page actions (a person commenting or a CI reporting on github.com).
  "POST /{owner}/{repo}/pull/{number}/sandbox/review-comment",
  "POST /{owner}/{repo}/pull/{number}/sandbox/check-run",
  // The issue page's label control (a maintainer labelling on github.com).
  "POST /{owner}/{repo}/issues/{number}/sandbox/label",
] as const;
