import type { Conn } from "./conn";

export interface GithubAccountWrite {
  githubId: number;
  login: string;
  scopes: string[];
  /** The access token encrypted for its owner. */
  token: { keyId: string; value: string };
}

/** Creates or refreshes the user's GitHub account (the one writer of github_accounts). */
export async function save(db: Conn, userId: string, a: GithubAccountWrite): Promise<void> {
  const values = { access_token_enc: a.token.value, key_id: a.token.keyId, scopes: a.scopes, login: a.login };
  await db
    .insertInto("github_accounts")
    .values({ user_id: userId, github_id: a.githubId, ...values })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ ...values, updated_at: new Date() }))
    .execute();
}

/** The scopes the user's stored token was granted; undefined when no account is connected. */
export async function scopes(db: Conn, userId: string): Promise<string[] | undefined> {
  const row = await db.selectFrom("github_accounts").select("scopes").where("user_id", "=", userId).executeTakeFirst();
  return row?.scopes;
}

/** The stored (encrypted) token with its login and scopes. */
export async function credentials(db: Conn, userId: string) {
  return db
    .selectFrom("github_accounts")
    .select(["login", "access_token_enc", "key_id", "scopes"])
    .where("user_id", "=", userId)
    .executeTakeFirst();
}
