import type { Db } from "../client";
import type { Conn } from "./conn";
import * as githubAccounts from "./github-accounts.repository";

export interface GithubIdentity {
  githubId: number;
  login: string;
  email: string | null;
  avatarUrl: string | null;
  scopes: string[];
  /** Encrypts the access token for its owner (the user id is the cipher's associated data). */
  seal: (userId: string) => { keyId: string; value: string };
}

/** Creates or refreshes the user and their GitHub account (token stored encrypted) in one transaction. */
export async function upsertFromGithub(db: Db, who: GithubIdentity): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const user = await trx
      .insertInto("users")
      .values({ github_id: who.githubId, username: who.login, email: who.email, avatar_url: who.avatarUrl })
      .onConflict((oc) =>
        oc
          .column("github_id")
          .doUpdateSet({ username: who.login, email: who.email, avatar_url: who.avatarUrl, updated_at: new Date() }),
      )
      .returning("id")
      .executeTakeFirstOrThrow();
    await githubAccounts.save(trx, user.id, { ...who, token: who.seal(user.id) });
    return user.id;
  });
}

export async function find(db: Conn, userId: string) {
  return db
    .selectFrom("users")
    .select(["id", "username", "email", "avatar_url", "github_id", "created_at"])
    .where("id", "=", userId)
    .executeTakeFirst();
}

/** Name and address a pull request's commits are signed with, and whether it opens as a draft. */
export async function reviewer(db: Conn, userId: string) {
  const user = await db
    .selectFrom("users")
    .select(["username", "email", "draft_pull_requests"])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return { username: user.username, email: user.email, draftPullRequests: user.draft_pull_requests };
}

/** Whether the user's upstream pull requests open as drafts. */
export async function draftPullRequests(db: Conn, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("users")
    .select("draft_pull_requests")
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return row.draft_pull_requests;
}

/** How many candidate patches the user's solves generate by default. */
export async function defaultCandidates(db: Conn, userId: string): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select("default_candidates")
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return row.default_candidates;
}

/** How the user's solves write a fix by default: one request, or the Investigate agent. */
export async function defaultRunMode(db: Conn, userId: string): Promise<"single" | "investigate"> {
  const row = await db
    .selectFrom("users")
    .select("default_run_mode")
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return row.default_run_mode;
}

export async function setDefaultRunMode(db: Conn, userId: string, mode: "single" | "investigate"): Promise<void> {
  await db
    .updateTable("users")
    .set({ default_run_mode: mode, updated_at: new Date() })
    .where("id", "=", userId)
    .execute();
}

/** The user's "present unverified solutions" choice; null: the operator's default applies. */
export async function presentUnverified(db: Conn, userId: string): Promise<boolean | null> {
  const row = await db
    .selectFrom("users")
    .select("present_unverified")
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return row.present_unverified;
}

export async function setPresentUnverified(db: Conn, userId: string, present: boolean): Promise<void> {
  await db
    .updateTable("users")
    .set({ present_unverified: present, updated_at: new Date() })
    .where("id", "=", userId)
    .execute();
}

export async function setDefaultCandidates(db: Conn, userId: string, n: number): Promise<void> {
  await db
    .updateTable("users")
    .set({ default_candidates: n, updated_at: new Date() })
    .where("id", "=", userId)
    .execute();
}

export async function setDraftPullRequests(db: Conn, userId: string, draft: boolean): Promise<void> {
  await db
    .updateTable("users")
    .set({ draft_pull_requests: draft, updated_at: new Date() })
    .where("id", "=", userId)
    .execute();
}

/** The user's own spending caps in USD (null: the operator's default). */
export async function setSpendingCaps(
  db: Conn,
  userId: string,
  caps: { runUsd: number | null; monthlyUsd: number | null },
): Promise<void> {
  await db
    .updateTable("users")
    .set({ run_cost_cap_usd: caps.runUsd, monthly_cost_cap_usd: caps.monthlyUsd, updated_at: new Date() })
    .where("id", "=", userId)
    .execute();
}

export const USER_COLUMNS = [
  "users.id",
  "users.username",
  "users.email",
  "users.avatar_url",
  "users.github_id",
  "users.created_at",
] as const;

/** A signed-in user as the API knows them. */
export interface UserRecord {
  id: string;
  username: string;
  email: string | null;
  avatarUrl: string | null;
  githubId: string;
  createdAt: Date;
}

export function toUser(r: {
  id: string;
  username: string;
  email: string | null;
  avatar_url: string | null;
  github_id: string;
  created_at: Date;
}): UserRecord {
  return {
    id: r.id,
    username: r.username,
    email: r.email,
    avatarUrl: r.avatar_url,
    githubId: r.github_id,
    createdAt: r.created_at,
  };
}
