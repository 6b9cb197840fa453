import { importedIssue, issues } from "@fixloop/db";
import {
  assertImportAllowed,
  canWrite,
  checkContribution,
  GithubError,
  githubForUser,
  linkedOpenPullRequests,
} from "@fixloop/runtime";
import { type ForkJob, type ImportResult } from "@fixloop/contract";
import type { WorkerContext } from "../context";
import { asGithubJob } from "../github/github.jobs";
import { issueColumns, type GithubIssue } from "../sync/issues.store";
import { githubFieldsOf } from "../sync/repositories.store";
import { forkOf } from "./fork.github";

/**
 * Imports a public issue: refuses it when the contribution checks block it or raise warnings the
 * user did not acknowledge, else forks its repository into the user's account unless a fork exists
 * (never a second one), waits until the fork has git data, then stores the issue as imported.
 * Running it again returns the same issue and the same fork.
 */
export async function importIssue(job: ForkJob, ctx: WorkerContext, signal: AbortSignal): Promise<ImportResult> {
  return asGithubJob("Issue", async () => {
    const gh = await githubForUser(ctx, job.userId);
    if (!canWrite(gh.scopes)) {
      throw new GithubError(
        "github.authorization_required",
        "Authorize repository access first: forking needs the public_repo scope",
        403,
      );
    }
    const { data: upstream } = await gh.client.rest.repos.get({ owner: job.owner, repo: job.repo });
    const { data: issue } = await gh.client.rest.issues.get({
      owner: upstream.owner.login,
      repo: upstream.name,
      issue_number: job.issueNumber,
    });
    if (issue.pull_request)
      throw new GithubError("github.not_an_issue", `#${job.issueNumber} is a pull request, not an issue`, 400);

    const known = await importedIssue(ctx.db, job.userId, upstream.id, issue.number);
    if (known?.fork_full_name)
      return { fork: { isNew: false, fullName: known.fork_full_name }, issueId: known.id, alreadyImported: true };
    const findings = await checkContribution(gh.client, {
      owner: upstream.owner.login,
      repo: upstream.name,
      issue,
      login: gh.login,
    });
    assertImportAllowed(findings, job.acknowledgeWarnings);

    const { fork, isNew } = await forkOf(gh.client, gh.login, upstream, signal);
    if (isNew)
      ctx.logger.info({ userId: job.userId, upstream: upstream.full_name, fork: fork.full_name }, "fork created");
    const issueId = await issues.recordImported(
      ctx.db,
      job.userId,
      { upstream: githubFieldsOf(upstream), fork: githubFieldsOf(fork) },
      issueColumns(issue as GithubIssue),
    );
    // Someone's open pull request for it (say, from their fork) is shown on the issue before a solve.
    const linked = await linkedOpenPullRequests(gh.client, upstream.owner.login, upstream.name, issue.number);
    await issues.setLinkedPulls(ctx.db, job.userId, upstream.id, new Map([[issue.number, linked]]));
    // A row of the issue already stored under this name (not imported, so without a fork) is the one
    // the import takes over: it existed before, with whatever the user did on it.
    return { fork: { isNew, fullName: fork.full_name }, issueId, alreadyImported: known?.id === issueId };
  });
}
