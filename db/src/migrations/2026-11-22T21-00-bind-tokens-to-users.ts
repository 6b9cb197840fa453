import type { Kysely } from "kysely";
import { createTokenCipher } from "../crypto/token-cipher";
import { migrationSettings } from "../migration-settings";

/**
 * Re-encrypts stored GitHub tokens from `v1` (no associated data) to `v2`, bound to their user
 * id. Needs the token keys (passed to migrateToLatest) when any `v1` token is stored.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const rows = await db
    .selectFrom("github_accounts")
    .select(["user_id", "key_id", "access_token_enc"])
    .where("access_token_enc", "like", "v1.%")
    .execute();
  if (rows.length === 0) return;
  const spec = migrationSettings().tokenEncryptionKeys;
  if (!spec)
    throw new Error("Re-encrypting the stored GitHub tokens needs TOKEN_ENCRYPTION_KEYS where the migrations run");
  const cipher = createTokenCipher(spec);
  for (const r of rows as { user_id: string; key_id: string; access_token_enc: string }[]) {
    const sealed = cipher.encrypt(cipher.decryptLegacy(r.key_id, r.access_token_enc), r.user_id);
    await db
      .updateTable("github_accounts")
      .set({ access_token_enc: sealed.value, key_id: sealed.keyId })
      .where("user_id", "=", r.user_id)
      .execute();
  }
}

/** Bound tokens stay readable by code that knows the user; there is nothing to undo safely. */
export async function down(): Promise<void> {}
