import { installations } from "@fixloop/db";
import { githubApp, refreshInstallationRepositories } from "@fixloop/runtime";
import type { WorkerContext } from "../context";
import type { GithubRepo } from "./repositories.store";

/**
 * The repositories of the user's App installations, as GitHub lists them now (each installation's
 * listing refreshed on the way), or null when the user has none (or no App is configured): then
 * the list is the OAuth grant's, as before. The App writes to every one of them (push);
 * a suspended installation's are listed, and solving them is refused.
 */
export async function installationRepositories(
  ctx: WorkerContext,
  userId: string,
): Promise<{ repos: GithubRepo[]; kept: string[] } | null> {
  const app = await githubApp(ctx);
  if (!app) return null;
  const mine = await installations.ofUser(ctx.db, userId);
  if (mine.length === 0) return null;
  const out: GithubRepo[] = [];
  const kept: string[] = [];
  for (const inst of mine) {
    const installationId = Number(inst.installation_id);
    if (inst.suspended_at) {
      // A suspended installation mints no token: its rows stay as GitHub last listed them.
      kept.push(...(await installations.repositoryIds(ctx.db, installationId)));
      continue;
    }
    const repos = await refreshInstallationRepositories(
      { db: ctx.db, logger: ctx.logger, githubApiUrl: ctx.env.GITHUB_API_URL },
      app,
      installationId,
    );
    out.push(...repos.map((r) => ({ ...r, permissions: { push: true } })));
  }
  return { repos: out, kept };
}
