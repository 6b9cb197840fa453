import type { Db } from "@fixloop/db";
import { API_TOKEN_PREFIX, hashSecret, randomSecret } from "../auth/secrets";

const columns = ["id", "name", "prefix", "created_at", "last_used_at", "revoked_at"] as const;

export function tokenView(t: {
  id: string;
  name: string;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}) {
  return {
    _id: t.id,
    name: t.name,
    prefix: t.prefix,
    createdAt: t.created_at.toISOString(),
    lastUsedAt: t.last_used_at?.toISOString() ?? null,
    revokedAt: t.revoked_at?.toISOString() ?? null,
  };
}

/** The secret is returned once, here; only its hash and a short prefix are stored. */
export async function createApiToken(db: Db, userId: string, name: string) {
  const secret = randomSecret(API_TOKEN_PREFIX);
  const row = await db
    .insertInto("api_tokens")
    .values({
      user_id: userId,
      name,
      token_hash: hashSecret(secret),
      prefix: secret.slice(0, API_TOKEN_PREFIX.length + 6),
    })
    .returning(columns)
    .executeTakeFirstOrThrow();
  return { row, secret };
}

export async function listApiTokens(db: Db, userId: string) {
  return db
    .selectFrom("api_tokens")
    .select(columns)
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .execute();
}

export async function revokeApiToken(db: Db, userId: string, id: string) {
  return db
    .updateTable("api_tokens")
    .set({ revoked_at: new Date() })
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .where("revoked_at", "is", null)
    .returning(columns)
    .executeTakeFirst();
}
