import { modelsConfigFromEnv } from "@fixloop/contract";
import { labelTriggers } from "@fixloop/db";
import { handleLabeledIssue, hasLabel, type GithubIssue } from "@fixloop/runtime";
import type { WorkerContext } from "../context";

/**
 * The sync's half of the label trigger, for repositories with no webhook: every open issue that
 * carries the repository's solve label goes through the same `handleLabeledIssue` as a webhook
 * (claimed once per issue and label, so a later sync or a webhook starts nothing more). One issue's
 * failure is logged and does not stop the others or the sync.
 */
export async function triggerLabeledIssues(
  ctx: WorkerContext,
  userId: string,
  repo: { githubId: number | string; fullName: string },
  found: GithubIssue[],
): Promise<number> {
  const repoFullName = repo.fullName;
  const setting = await labelTriggers.findSetting(ctx.db, userId, repoFullName);
  const label = setting?.solve_label;
  if (!label) return 0;
  const deps = { ...ctx, models: modelsConfigFromEnv(ctx.env), publicUrl: ctx.env.PUBLIC_URL };
  let started = 0;
  for (const issue of found) {
    if (issue.state !== "open" || !hasLabel(issue, label)) continue;
    try {
      const outcome = await handleLabeledIssue(deps, {
        repositoryId: repo.githubId,
        repoFullName,
        issueNumber: issue.number,
        label,
        senderLogin: null,
      });
      if (outcome.status === "started") started += 1;
    } catch (err) {
      ctx.logger.warn({ repo: repoFullName, issue: issue.number, err: (err as Error).message }, "label trigger failed");
    }
  }
  return started;
}
