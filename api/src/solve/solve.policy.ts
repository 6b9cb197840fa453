import {
  githubApp,
  assertPolicyStillAllows,
  checkIssueOnGithub,
  githubForUser,
  suspendedError,
  toGithubError,
} from "@fixloop/runtime";
import { standing } from "@fixloop/contract";
import { installations } from "@fixloop/db";
import type { AppDeps } from "../deps";
import { githubUserContext } from "../auth/auth.cipher";
import { failureError } from "../jobs/jobs.run";
import { assertAllowed } from "../issues/issues.standing";

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

/**
 * Reads the issue from GitHub before anything is spent on it: an issue deleted there (410) or
 * transferred to another repository (301) is marked so for every user who has it, and the run is
 * refused. GitHub saying nothing either way (an outage, a 404) leaves the decision to the run.
 */
export async function assertIssueOnGithub(
  deps: AppDeps,
  userId: string,
  issue: { issue_number: number; repo_full_name: string; repository_github_id: string },
): Promise<void> {
  const fullName = issue.repo_full_name;
  let gone;
  try {
    const gh = await githubForUser(githubUserContext(deps), userId);
    gone = await checkIssueOnGithub(
      deps,
      gh.client,
      { githubId: issue.repository_github_id, fullName },
      issue.issue_number,
    );
  } catch (err) {
    deps.logger.warn({ userId, repo: fullName, err }, "could not read the issue from GitHub before a run");
    return;
  }
  if (gone) assertAllowed("solve", standing({ gone: gone.reason, moved_to: gone.movedTo }));
}

/**
 * A repository reached through a suspended installation of the App: nothing can be written there,
 * so no run starts (403 `github.installation_suspended`, naming the account and what to do).
 */
export async function assertInstallationActive(
  deps: AppDeps,
  userId: string,
  issue: { is_imported: boolean; repo_full_name: string; repository_github_id: string },
): Promise<void> {
  if (issue.is_imported || !(await githubApp(githubUserContext(deps)))) return;
  const [owner = ""] = issue.repo_full_name.split("/");
  const inst = await installations.forRepository(deps.db, userId, { githubId: issue.repository_github_id, owner });
  if (inst?.suspended_at) throw failureError(suspendedError(inst.account_login));
}
