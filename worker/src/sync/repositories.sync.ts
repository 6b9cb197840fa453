import { repositories } from "@fixloop/db";
import type { SyncJob } from "@fixloop/contract";
import type { WorkerContext } from "../context";
import { githubForUser, stopRunsOfLeftRepositories } from "@fixloop/runtime";
import { asGithubJob } from "../github/github.jobs";
import { installationRepositories } from "./repositories.installations";
import { upsertRepository, type GithubRepo } from "./repositories.store";

/**
 * Mirrors the repositories the user's token can see, all pages: owned, as a collaborator, and
 * through an organisation (its base permission or a team), GitHub's default affiliation. A user
 * who installed the GitHub App sees exactly its installations' repositories instead. Each
 * keeps GitHub's push permission: one the user may only read is listed, but fetching its issues
 * and the label trigger are refused (its issues are imported by URL, solved through a fork).
 */
export async function syncRepositories(
  job: Extract<SyncJob, { kind: "repositories" }>,
  ctx: WorkerContext,
  _signal: AbortSignal,
): Promise<{ count: number }> {
  return asGithubJob("Repository", async () => {
    const viaApp = await installationRepositories(ctx, job.userId);
    const repos = viaApp?.repos ?? (await grantedRepositories(ctx, job.userId));
    for (const r of repos) await upsertRepository(ctx.db, job.userId, r);
    const seen = [...repos.map((r) => String(r.id)), ...(viaApp?.kept ?? [])];
    // Repositories the token no longer sees (revoked access, deleted) leave the list, and the
    // user's runs of issues of a repository that left it stop (those of this removal, and those an
    // earlier sync that failed after its removal left going): none could open its pull request.
    await repositories.removeUnseen(ctx.db, job.userId, seen);
    await stopRunsOfLeftRepositories(ctx, job.userId);
    ctx.logger.info({ userId: job.userId, count: repos.length }, "repositories synced");
    return { count: repos.length };
  });
}

async function grantedRepositories(ctx: WorkerContext, userId: string): Promise<GithubRepo[]> {
  const gh = await githubForUser(ctx, userId);
  return gh.client.paginate(gh.client.rest.repos.listForAuthenticatedUser, {
    per_page: 100,
    sort: "full_name",
    affiliation: "owner,collaborator,organization_member",
  });
}
