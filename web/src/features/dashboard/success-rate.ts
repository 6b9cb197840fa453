import type { Issue, PullRequest } from "../../api/types";

/**
 * Share of completed solutions that became an open or merged pull request.
 * A completed solution is counted from the issues whose solve finished (solved or PR created).
 */
export function successRate(
  issues: Issue[],
  prs: PullRequest[],
): { percent: number | null; landed: number; completed: number } {
  const completed = issues.filter((i) => i.status === "solved" || i.status === "pr_created").length;
  const landed = prs.filter((p) => p.status === "open" || p.status === "merged").length;
  if (completed === 0) return { percent: null, landed, completed };
  return { percent: Math.min(100, Math.round((landed / completed) * 100)), landed, completed };
}
