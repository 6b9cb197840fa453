import type { Conn } from "./conn";
import { toUser, USER_COLUMNS, type UserRecord } from "./users.repository";

const COLUMNS = ["id", "name", "prefix", "created_at", "last_used_at", "revoked_at"] as const;

/** Stores a token by its hash and short prefix (the secret itself is never stored). */
export async function create(db: Conn, t: { userId: string; name: string; tokenHash: string; prefix: string }) {
  return db
    .insertInto("api_tokens")
    .values({ user_id: t.userId, name: t.name, token_hash: t.tokenHash, prefix: t.prefix })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function list(db: Conn, userId: string) {
  return db
    .selectFrom("api_tokens")
    .select(COLUMNS)
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .execute();
}

/** Revokes the user's live token; undefined when there is none with this id. */
export async function revoke(db: Conn, userId: string, id: string) {
  return db
    .updateTable("api_tokens")
    .set({ revoked_at: new Date() })
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .returning(COLUMNS)
    .executeTakeFirst();
}

/** The owner of a live API token, noting the token's use. */
export async function userOf(db: Conn, tokenHash: string): Promise<UserRecord | undefined> {
  const row = await db
    .updateTable("api_tokens")
    .set({ last_used_at: new Date() })
    .from("users")
    .whereRef("users.id", "=", "api_tokens.user_id")
    .where("api_tokens.token_hash", "=", tokenHash)
    .where("api_tokens.revoked_at", "is", null)
    .returning(USER_COLUMNS)
    .executeTakeFirst();
  return row && toUser(row);
}
