import { installations } from "@fixloop/db";
import { appOctokit, githubApp, refreshInstallationRepositories } from "@fixloop/runtime";
import type { WorkerContext } from "../context";

/** The catch-up's job id: workers starting together queue it once. */
export const INSTALLATIONS_CATCH_UP_JOB = "installations-catch-up";

/**
 * Reads the App's installations from GitHub as the App (`GET /app/installations`, then each one's
 * repositories) and makes the stored ones match: created, changed, suspended or unsuspended,
 * repositories added or removed, and uninstalled while no webhook could reach Fixloop. The users
 * of each installation get their repository list synced again. Without an App, nothing to do.
 */
export async function catchUpInstallations(ctx: WorkerContext): Promise<{ count: number }> {
  const app = await githubApp(ctx);
  if (!app) return { count: 0 };
  const gh = appOctokit(app, ctx.env.GITHUB_API_URL);
  const listed = await gh.paginate(gh.rest.apps.listInstallations, { per_page: 100 });
  const seen = new Set<string>();
  const users = new Set<string>();
  for (const inst of listed) {
    const account = inst.account && "login" in inst.account ? inst.account : null;
    if (!account) continue;
    seen.add(String(inst.id));
    await installations.save(ctx.db, {
      installationId: inst.id,
      accountLogin: account.login,
      accountId: account.id,
      accountType: inst.target_type,
      repositorySelection: inst.repository_selection,
      suspendedAt: inst.suspended_at ?? null,
    });
    // A suspended installation mints no token: its repositories stay as GitHub last listed them.
    if (!inst.suspended_at)
      await refreshInstallationRepositories(
        { db: ctx.db, logger: ctx.logger, githubApiUrl: ctx.env.GITHUB_API_URL },
        app,
        inst.id,
      );
    for (const u of await installations.linkKnownUsers(ctx.db, inst.id)) users.add(u);
    for (const u of await installations.usersOf(ctx.db, inst.id)) users.add(u);
  }
  for (const id of await installations.allIds(ctx.db))
    if (!seen.has(id)) for (const u of await installations.remove(ctx.db, Number(id))) users.add(u);
  for (const userId of users) await ctx.queues.sync.add("sync", { kind: "repositories", userId });
  ctx.logger.info({ installations: listed.length, users: users.size }, "installations caught up with GitHub");
  return { count: listed.length };
}

/** Queues the catch-up (at a worker's start); one job however many workers start at once. */
export async function queueInstallationsCatchUp(ctx: WorkerContext): Promise<boolean> {
  if (!(await githubApp(ctx))) return false;
  await ctx.queues.sync.add(
    "sync",
    { kind: "installations" },
    {
      jobId: `${INSTALLATIONS_CATCH_UP_JOB}-${Math.floor(Date.now() / 60_000)}`,
      attempts: 3,
      backoff: { type: "exponential", delay: 5_000 },
    },
  );
  return true;
}
