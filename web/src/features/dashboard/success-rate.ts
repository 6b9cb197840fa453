import type { PullRequest } from "../../api/types";

/**
 * Share of completed solutions that became an open or merged pull request. `completed` counts the
 * issues whose solve finished (solved or PR created), as the issue list's counts give it: the
 * list itself arrives a page at a time.
 */
export function successRate(
  completed: number,
  prs: PullRequest[],
): { percent: number | null; landed: number; completed: number } {
  const landed = prs.filter((p) => p.status === "open" || p.status === "merged").length;
  if (completed === 0) return { percent: null, landed, completed };
  return { percent: Math.min(100, Math.round((landed / completed) * 100)), landed, completed };
}
