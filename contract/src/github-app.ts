/**
 * What Fixloop's GitHub App asks for: write contents, pull requests and issues; read checks and
 * metadata. The manifest flow asks for exactly this, and an App GitHub returns with anything more
 * is refused (never stored, never used).
 */
export const GITHUB_APP_PERMISSIONS = {
  contents: "write",
  pull_requests: "write",
  issues: "write",
  checks: "read",
  metadata: "read",
} as const satisfies Record<string, "read" | "write">;

/**
 * The events the App subscribes to. `installation` and `installation_repositories` are not among
 * them: GitHub sends those to every App without a subscription (they are not events an App can
 * choose). `push` and `repository` keep branches and renamed repositories current.
 */
export const GITHUB_APP_EVENTS = [
  "issues",
  "issue_comment",
  "pull_request",
  "pull_request_review",
  "pull_request_review_comment",
  "check_run",
  "check_suite",
  "push",
  "repository",
] as const;

const LEVEL: Record<string, number> = { read: 1, write: 2 };

/**
 * The permissions in `granted` beyond GITHUB_APP_PERMISSIONS (a name not on the list, or a higher
 * level), as `name: level`; empty when the App asks for no more than Fixloop needs.
 */
export function permissionsBeyondFixloop(granted: Record<string, string>): string[] {
  const allowed: Record<string, string> = GITHUB_APP_PERMISSIONS;
  return Object.entries(granted)
    .filter(([name, level]) => {
      const max = allowed[name];
      const want = LEVEL[level];
      return max === undefined || want === undefined || want > (LEVEL[max] ?? 0);
    })
    .map(([name, level]) => `${name}: ${level}`);
}
