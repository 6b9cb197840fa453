import type { Db } from "@fixloop/db";
import type { CurrentUser } from "./auth.middleware";
import { hashSecret, randomSecret } from "./secrets";

export const STATE_TTL_MS = 10 * 60_000;
export const LOGIN_CODE_TTL_MS = 60_000;

export type StatePurpose = "signin" | "repos";
export type StateFailure =
  "oauth.state_invalid" | "oauth.state_mismatch" | "oauth.state_reused" | "oauth.state_expired";

/** Stores a new OAuth state bound to a browser secret; returns both raw values (only hashes are kept). */
export async function createOauthState(db: Db, purpose: StatePurpose, scopes: string[], userId: string | null) {
  const state = randomSecret();
  const binding = randomSecret();
  await db
    .insertInto("oauth_states")
    .values({
      state_hash: hashSecret(state),
      browser_binding_hash: hashSecret(binding),
      purpose,
      scopes,
      user_id: userId,
      expires_at: new Date(Date.now() + STATE_TTL_MS),
    })
    .execute();
  return { state, binding };
}

/** Marks the state used if it exists, matches this browser, is unused and unexpired; otherwise says why not. */
export async function consumeOauthState(db: Db, state: string, binding: string) {
  const row = await db
    .selectFrom("oauth_states")
    .selectAll()
    .where("state_hash", "=", hashSecret(state))
    .executeTakeFirst();
  const fail = (reason: StateFailure) => ({ ok: false as const, reason, purpose: row?.purpose ?? "signin" });
  if (!row) return fail("oauth.state_invalid");
  if (row.browser_binding_hash !== hashSecret(binding)) return fail("oauth.state_mismatch");
  if (row.used_at) return fail("oauth.state_reused");
  if (row.expires_at.getTime() <= Date.now()) return fail("oauth.state_expired");
  const used = await db
    .updateTable("oauth_states")
    .set({ used_at: new Date() })
    .where("state_hash", "=", row.state_hash)
    .where("used_at", "is", null)
    .returning(["purpose", "user_id", "scopes"])
    .executeTakeFirst();
  if (!used) return fail("oauth.state_reused");
  return { ok: true as const, purpose: used.purpose, userId: used.user_id, scopes: used.scopes };
}

export interface GithubIdentity {
  githubId: number;
  login: string;
  email: string | null;
  avatarUrl: string | null;
  /** Encrypts the access token for its owner (the user id is the cipher's associated data). */
  seal: (userId: string) => { keyId: string; value: string };
  scopes: string[];
}

/** Creates or refreshes the user and their GitHub account (token stored encrypted) in one transaction. */
export async function upsertGithubUser(db: Db, who: GithubIdentity): Promise<string> {
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
    await saveGithubToken(trx as unknown as Db, user.id, who);
    return user.id;
  });
}

export async function saveGithubToken(db: Db, userId: string, who: GithubIdentity): Promise<void> {
  const token = who.seal(userId);
  const values = { access_token_enc: token.value, key_id: token.keyId, scopes: who.scopes, login: who.login };
  await db
    .insertInto("github_accounts")
    .values({ user_id: userId, github_id: who.githubId, ...values })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ ...values, updated_at: new Date() }))
    .execute();
}

export async function createLoginCode(db: Db, userId: string, binding: string): Promise<string> {
  const code = randomSecret();
  await db
    .insertInto("login_codes")
    .values({
      code_hash: hashSecret(code),
      user_id: userId,
      browser_binding_hash: hashSecret(binding),
      expires_at: new Date(Date.now() + LOGIN_CODE_TTL_MS),
    })
    .execute();
  return code;
}

/**
 * Single use: the conditional update lets exactly one exchange win. Only the browser that started
 * the sign-in (same binding as the OAuth state) can exchange the code: no login CSRF.
 */
export async function consumeLoginCode(db: Db, code: string, binding: string): Promise<string | null> {
  const row = await db
    .updateTable("login_codes")
    .set({ used_at: new Date() })
    .where("code_hash", "=", hashSecret(code))
    .where("browser_binding_hash", "=", hashSecret(binding))
    .where("used_at", "is", null)
    .where("expires_at", ">", new Date())
    .returning("user_id")
    .executeTakeFirst();
  return row?.user_id ?? null;
}

export async function createSession(
  db: Db,
  userId: string,
  ttlDays: number,
  userAgent: string | null,
): Promise<string> {
  const token = randomSecret();
  await db
    .insertInto("sessions")
    .values({
      token_hash: hashSecret(token),
      user_id: userId,
      user_agent: userAgent,
      expires_at: new Date(Date.now() + ttlDays * 86_400_000),
    })
    .execute();
  return token;
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db
    .updateTable("sessions")
    .set({ revoked_at: new Date() })
    .where("id", "=", sessionId)
    .where("revoked_at", "is", null)
    .execute();
}

export async function findUser(db: Db, userId: string) {
  return db
    .selectFrom("users")
    .select(["id", "username", "email", "avatar_url", "github_id", "created_at"])
    .where("id", "=", userId)
    .executeTakeFirst();
}

const USER_COLUMNS = [
  "users.id",
  "users.username",
  "users.email",
  "users.avatar_url",
  "users.github_id",
  "users.created_at",
] as const;

function toUser(r: {
  id: string;
  username: string;
  email: string | null;
  avatar_url: string | null;
  github_id: string;
  created_at: Date;
}) {
  return {
    id: r.id,
    username: r.username,
    email: r.email,
    avatarUrl: r.avatar_url,
    githubId: r.github_id,
    createdAt: r.created_at,
  };
}

/** The owner of a live API token, noting the token's use. */
export async function userOfApiToken(db: Db, tokenHash: string): Promise<CurrentUser | undefined> {
  const row = await db
    .updateTable("api_tokens")
    .set({ last_used_at: new Date() })
    .from("users")
    .whereRef("users.id", "=", "api_tokens.user_id")
    .where("api_tokens.token_hash", "=", tokenHash)
    .where("api_tokens.revoked_at", "is", null)
    .returning(USER_COLUMNS)
    .executeTakeFirst();
  return row && { ...toUser(row), via: "token" };
}

/** The user of a live, unexpired session. */
export async function userOfSession(db: Db, tokenHash: string): Promise<CurrentUser | undefined> {
  const row = await db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .select(["sessions.id as session_id", ...USER_COLUMNS])
    .where("sessions.token_hash", "=", tokenHash)
    .where("sessions.revoked_at", "is", null)
    .where("sessions.expires_at", ">", new Date())
    .executeTakeFirst();
  return row && { ...toUser(row), via: "session", sessionId: row.session_id };
}
