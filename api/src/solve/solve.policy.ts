import { assertPolicyStillAllows, githubForUser, toGithubError } from "@fixloop/runtime";
import type { AppDeps } from "../deps";
import { githubUserContext } from "../auth/auth.cipher";
import { failureError } from "../jobs/jobs.run";

/**
 * The contribution rules of an imported issue's repository, checked again before a run starts
 * (cached briefly per repository): a policy added upstream since the import refuses the run with 409.
 */
export async function assertContributionAllowed(
  deps: AppDeps,
  userId: string,
  issue: { is_imported: boolean; upstream_full_name: string | null; repo_full_name: string },
): Promise<void> {
  if (!issue.is_imported) return;
  try {
    const gh = await githubForUser(githubUserContext(deps), userId);
    await assertPolicyStillAllows(
      gh.client,
      { redis: deps.redis, prefix: deps.queues.prefix },
      issue.upstream_full_name ?? issue.repo_full_name,
    );
  } catch (err) {
    throw failureError(toGithubError(err, "Repository"));
  }
}
