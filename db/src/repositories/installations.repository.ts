import { sql } from "kysely";
import type { Conn } from "./conn";
import * as githubRepositories from "./github-repositories.repository";

export interface InstallationWrite {
  installationId: number;
  accountLogin: string;
  accountId: number;
  accountType: string;
  repositorySelection: string;
  /** The installer's GitHub id; an existing value is kept when absent. */
  installedByGithubId?: number | null;
  suspendedAt: Date | string | null;
}

/** Creates or refreshes an installation as GitHub describes it. */
export async function save(db: Conn, i: InstallationWrite): Promise<void> {
  const values = {
    account_login: i.accountLogin,
    account_id: i.accountId,
    account_type: i.accountType,
    repository_selection: i.repositorySelection,
    suspended_at: i.suspendedAt,
    ...(i.installedByGithubId ? { installed_by_github_id: i.installedByGithubId } : {}),
  };
  await db
    .insertInto("github_installations")
    .values({ installation_id: i.installationId, ...values })
    .onConflict((oc) => oc.column("installation_id").doUpdateSet({ ...values, updated_at: new Date() }))
    .execute();
}

export async function setSuspended(db: Conn, installationId: number, at: Date | null): Promise<number> {
  const r = await db
    .updateTable("github_installations")
    .set({ suspended_at: at, updated_at: new Date() })
    .where("installation_id", "=", String(installationId))
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** Forgets an installation (uninstalled); returns the users it served. */
export async function remove(db: Conn, installationId: number): Promise<string[]> {
  const users = await usersOf(db, installationId);
  await db.deleteFrom("github_installations").where("installation_id", "=", String(installationId)).execute();
  return users;
}

/** Repositories GitHub lists for the installation: each stored by its GitHub id (its name on its one row). */
export async function addRepositories(
  db: Conn,
  installationId: number,
  repos: { githubId: number; fullName: string }[],
): Promise<void> {
  if (repos.length === 0) return;
  for (const r of repos) await githubRepositories.upsert(db, { github_id: r.githubId, full_name: r.fullName });
  await db
    .insertInto("github_installation_repositories")
    .values(repos.map((r) => ({ installation_id: installationId, github_id: r.githubId })))
    .onConflict((oc) => oc.columns(["installation_id", "github_id"]).doNothing())
    .execute();
}

export async function removeRepositories(db: Conn, installationId: number, githubIds: number[]): Promise<void> {
  if (githubIds.length === 0) return;
  await db
    .deleteFrom("github_installation_repositories")
    .where("installation_id", "=", String(installationId))
    .where("github_id", "in", githubIds.map(String))
    .execute();
}

/** Replaces the installation's repositories with what GitHub lists now. */
export async function setRepositories(
  db: Conn,
  installationId: number,
  repos: { githubId: number; fullName: string }[],
): Promise<void> {
  await db
    .deleteFrom("github_installation_repositories")
    .where("installation_id", "=", String(installationId))
    .execute();
  await addRepositories(db, installationId, repos);
}

export async function link(db: Conn, installationId: number, userId: string): Promise<void> {
  await db
    .insertInto("github_installation_users")
    .values({ installation_id: installationId, user_id: userId })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * Links the installation to the Fixloop users GitHub names for it: whoever installed it, and the
 * owner of the personal account it is on. Returns the users linked.
 */
export async function linkKnownUsers(db: Conn, installationId: number): Promise<string[]> {
  const rows = await db
    .selectFrom("github_installations as i")
    .innerJoin("users as u", (j) =>
      j.on((eb) =>
        eb.or([
          eb("u.github_id", "=", eb.ref("i.installed_by_github_id")),
          eb.and([eb("i.account_type", "=", "User"), eb("u.github_id", "=", eb.ref("i.account_id"))]),
        ]),
      ),
    )
    .select("u.id")
    .where("i.installation_id", "=", String(installationId))
    .execute();
  for (const r of rows) await link(db, installationId, r.id);
  return rows.map((r) => r.id);
}

export async function usersOf(db: Conn, installationId: number): Promise<string[]> {
  const rows = await db
    .selectFrom("github_installation_users")
    .select("user_id")
    .where("installation_id", "=", String(installationId))
    .execute();
  return rows.map((r) => r.user_id);
}

export async function byId(db: Conn, installationId: number) {
  return db
    .selectFrom("github_installations")
    .selectAll()
    .where("installation_id", "=", String(installationId))
    .executeTakeFirst();
}

/** The installations serving the user, oldest first. */
export async function ofUser(db: Conn, userId: string) {
  return db
    .selectFrom("github_installations as i")
    .innerJoin("github_installation_users as u", "u.installation_id", "i.installation_id")
    .selectAll("i")
    .where("u.user_id", "=", userId)
    .orderBy("i.created_at")
    .execute();
}

/**
 * The user's installation that reaches the repository with GitHub id `githubId` (owned by `owner`
 * now): one listing it, or one on all repositories of its owner. A suspended one is returned too
 * (the caller refuses).
 */
export async function forRepository(db: Conn, userId: string, repo: { githubId: number | string; owner: string }) {
  const { owner } = repo;
  return db
    .selectFrom("github_installations as i")
    .innerJoin("github_installation_users as u", "u.installation_id", "i.installation_id")
    .selectAll("i")
    .where("u.user_id", "=", userId)
    .where((eb) =>
      eb.or([
        eb.exists(
          eb
            .selectFrom("github_installation_repositories as r")
            .select("r.github_id")
            .whereRef("r.installation_id", "=", "i.installation_id")
            .where("r.github_id", "=", String(repo.githubId)),
        ),
        eb.and([eb("i.repository_selection", "=", "all"), eb(sql`lower(i.account_login)`, "=", owner.toLowerCase())]),
      ]),
    )
    .orderBy("i.suspended_at", "desc")
    .executeTakeFirst();
}

/** GitHub ids of the repositories GitHub last listed for the installation. */
export async function repositoryIds(db: Conn, installationId: number): Promise<string[]> {
  const rows = await db
    .selectFrom("github_installation_repositories")
    .select("github_id")
    .where("installation_id", "=", String(installationId))
    .execute();
  return rows.map((r) => r.github_id);
}

/** Whether the user answered the one-time prompt to install the App. */
export async function promptAnswered(db: Conn, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("github_app_prompts")
    .select("user_id")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Remembers that the user answered the prompt to install the App (it is not asked again). */
export async function answerPrompt(db: Conn, userId: string): Promise<void> {
  await db
    .insertInto("github_app_prompts")
    .values({ user_id: userId })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** How many repositories GitHub last listed for each of the installations. */
export async function repositoryCounts(db: Conn, installationIds: string[]): Promise<Map<string, number>> {
  if (installationIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("github_installation_repositories")
    .select((eb) => ["installation_id", eb.fn.countAll<string>().as("n")])
    .where("installation_id", "in", installationIds)
    .groupBy("installation_id")
    .execute();
  return new Map(rows.map((r) => [String(r.installation_id), Number(r.n)]));
}

/** Every installation Fixloop knows, by id. */
export async function allIds(db: Conn): Promise<string[]> {
  const rows = await db.selectFrom("github_installations").select("installation_id").execute();
  return rows.map((r) => String(r.installation_id));
}
