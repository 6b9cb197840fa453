import type { Conn } from "./conn";

/** What the manifest conversion gave, with the three secrets already encrypted. */
export interface GithubAppConfigWrite {
  appId: number;
  slug: string;
  name: string;
  ownerLogin: string;
  htmlUrl: string;
  clientId: string;
  keyId: string;
  clientSecretEnc: string;
  webhookSecretEnc: string;
  privateKeyEnc: string;
  permissions: Record<string, string>;
  events: string[];
  createdBy: string;
}

const PUBLIC_COLUMNS = [
  "id",
  "app_id",
  "slug",
  "name",
  "owner_login",
  "html_url",
  "client_id",
  "permissions",
  "events",
  "created_by",
  "created_at",
] as const;

/** The encryption's associated data of a stored App: a ciphertext moved onto another row does not decrypt. */
export const configCipherOwner = (id: string): string => `github-app:${id}`;

/** Stores a new App; it is the one in use from now on (the newest row wins). */
export async function insert(db: Conn, id: string, c: GithubAppConfigWrite): Promise<void> {
  await db
    .insertInto("github_app_configs")
    .values({
      id,
      app_id: c.appId,
      slug: c.slug,
      name: c.name,
      owner_login: c.ownerLogin,
      html_url: c.htmlUrl,
      client_id: c.clientId,
      key_id: c.keyId,
      client_secret_enc: c.clientSecretEnc,
      webhook_secret_enc: c.webhookSecretEnc,
      private_key_enc: c.privateKeyEnc,
      permissions: JSON.stringify(c.permissions),
      events: c.events,
      created_by: c.createdBy,
    })
    .execute();
}

/** The App in use, without its secrets: for pages and logs. */
export async function newestPublic(db: Conn) {
  return db
    .selectFrom("github_app_configs as g")
    .leftJoin("users as u", "u.id", "g.created_by")
    .select(PUBLIC_COLUMNS.map((c) => `g.${c}` as const))
    .select("u.username as created_by_login")
    .orderBy("g.created_at", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** The App in use with its encrypted secrets: for minting tokens and checking webhooks only. */
export async function newestSecret(db: Conn) {
  return db
    .selectFrom("github_app_configs")
    .select(["id", "app_id", "slug", "key_id", "webhook_secret_enc", "private_key_enc", "client_secret_enc"])
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
}

/** Starts a manifest flow: the state (hashed) bound to the operator and their session. */
export async function createState(
  db: Conn,
  s: { stateHash: string; userId: string; sessionHash: string; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto("github_app_manifest_states")
    .values({ state_hash: s.stateHash, user_id: s.userId, session_hash: s.sessionHash, expires_at: s.expiresAt })
    .execute();
}

export type ManifestStateFailure = "github_app.state_invalid" | "github_app.state_reused" | "github_app.state_expired";

/**
 * Uses up a state, once: it must exist, belong to this operator and session, be unused and
 * unexpired. The update is conditional, so two callbacks racing with one state cannot both pass.
 */
export async function consumeState(
  db: Conn,
  s: { stateHash: string; userId: string; sessionHash: string },
): Promise<{ ok: true } | { ok: false; reason: ManifestStateFailure }> {
  const row = await db
    .selectFrom("github_app_manifest_states")
    .selectAll()
    .where("state_hash", "=", s.stateHash)
    .executeTakeFirst();
  if (!row || row.user_id !== s.userId || row.session_hash !== s.sessionHash)
    return { ok: false, reason: "github_app.state_invalid" };
  if (row.used_at) return { ok: false, reason: "github_app.state_reused" };
  if (row.expires_at.getTime() <= Date.now()) return { ok: false, reason: "github_app.state_expired" };
  const used = await db
    .updateTable("github_app_manifest_states")
    .set({ used_at: new Date() })
    .where("state_hash", "=", s.stateHash)
    .where("used_at", "is", null)
    .returning("state_hash")
    .executeTakeFirst();
  return used ? { ok: true } : { ok: false, reason: "github_app.state_reused" };
}
