import { z } from "zod";
import { githubLogin } from "@fixloop/contract";
import { installations, type Conn } from "@fixloop/db";
import type { AppDeps } from "../deps";
import { applied, handler, ignored, type WebhookContext } from "./webhooks.handler";

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const Repo = z.object({ id, full_name: z.string().min(3).max(200) });
const Installation = z.object({
  id,
  account: z.object({ login: githubLogin(), id, type: z.enum(["User", "Organization", "Enterprise"]) }),
  repository_selection: z.enum(["all", "selected"]),
  suspended_at: z.string().nullish(),
});
const Sender = z.object({ id });

export const InstallationEvent = z.object({
  action: z.string(),
  installation: Installation,
  repositories: z.array(Repo).optional(),
  sender: Sender,
});

export const InstallationRepositoriesEvent = z.object({
  action: z.string(),
  installation: Installation,
  repository_selection: z.enum(["all", "selected"]),
  repositories_added: z.array(Repo),
  repositories_removed: z.array(Repo.partial({ full_name: true })),
  sender: Sender,
});

type Inst = z.infer<typeof Installation>;

const save = (db: Conn, i: Inst, installedBy?: number) =>
  installations.save(db, {
    installationId: i.id,
    accountLogin: i.account.login,
    accountId: i.account.id,
    accountType: i.account.type,
    repositorySelection: i.repository_selection,
    installedByGithubId: installedBy,
    suspendedAt: i.suspended_at ?? null,
  });

const repos = (list: z.infer<typeof Repo>[]) => list.map((r) => ({ githubId: r.id, fullName: r.full_name }));

/** The users' repository lists follow at once: a sync of each is queued (the list view runs one too). */
async function resync(deps: AppDeps, ctx: WebhookContext, users: string[]): Promise<void> {
  for (const userId of users) await deps.queues.sync.add("sync", { kind: "repositories", userId });
  ctx.logger.info({ deliveryId: ctx.deliveryId, users: users.length }, "installation changed: repository lists resync");
}

/**
 * `installation`: created (stored, linked to the Fixloop user who installed it or whose account it
 * is on), deleted (forgotten; those users' lists go back to their OAuth grant, if any), suspend and
 * unsuspend (solves of its repositories are refused while suspended), new permissions accepted.
 */
export const onInstallation = handler(
  InstallationEvent,
  async (ctx, e) => {
    const i = e.installation;
    if (e.action === "deleted") {
      const users = await installations.remove(ctx.db, i.id);
      await resync(ctx.deps, ctx, users);
      return applied(users.length);
    }
    if (!["created", "suspend", "unsuspend", "new_permissions_accepted"].includes(e.action))
      return ignored(`action_${e.action}`);
    await save(ctx.db, i, e.action === "created" ? e.sender.id : undefined);
    if (e.action === "suspend" || e.action === "unsuspend")
      await installations.setSuspended(
        ctx.db,
        i.id,
        e.action === "suspend" ? new Date(i.suspended_at ?? Date.now()) : null,
      );
    if (e.repositories) await installations.setRepositories(ctx.db, i.id, repos(e.repositories));
    const users = await installations.linkKnownUsers(ctx.db, i.id);
    await resync(ctx.deps, ctx, users);
    return applied(1);
  },
  { outside: true },
);

/** `installation_repositories` added or removed: the installation's list, then its users' lists, follow. */
export const onInstallationRepositories = handler(
  InstallationRepositoriesEvent,
  async (ctx, e) => {
    const i = e.installation;
    await save(ctx.db, i);
    await installations.addRepositories(ctx.db, i.id, repos(e.repositories_added));
    await installations.removeRepositories(
      ctx.db,
      i.id,
      e.repositories_removed.map((r) => r.id),
    );
    const users = await installations.linkKnownUsers(ctx.db, i.id);
    await resync(ctx.deps, ctx, [...new Set([...users, ...(await installations.usersOf(ctx.db, i.id))])]);
    return applied(e.repositories_added.length + e.repositories_removed.length);
  },
  { outside: true },
);
