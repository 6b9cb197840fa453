import { apiTokens, type Db } from "@fixloop/db";
import { API_TOKEN_PREFIX, hashSecret, randomSecret } from "../auth/secrets";

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
  const row = await apiTokens.create(db, {
    userId,
    name,
    tokenHash: hashSecret(secret),
    prefix: secret.slice(0, API_TOKEN_PREFIX.length + 6),
  });
  return { row, secret };
}
