import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { createTestDatabase } from "../../test/testing";
import { up } from "../migrations/2026-11-22T21-00-bind-tokens-to-users";
import { withMigrationSettings } from "../migration-settings";
import { createTokenCipher } from "./token-cipher";

const KEY = Buffer.alloc(32, 3);
const SPEC = `k9:${KEY.toString("base64")}`;

/** A token as the first release stored it: AES-256-GCM without associated data. */
function sealV1(plain: string): string {
  const iv = crypto.randomBytes(12);
  const c = crypto.createCipheriv("aes-256-gcm", KEY, iv);
  const enc = Buffer.concat([c.update(plain, "utf8"), c.final()]);
  return ["v1", iv.toString("base64url"), c.getAuthTag().toString("base64url"), enc.toString("base64url")].join(".");
}

describe("the token re-encryption migration", () => {
  it("re-encrypts stored v1 tokens bound to their user", async () => {
    const { db } = await createTestDatabase();
    const user = await db
      .insertInto("users")
      .values({ github_id: 77, username: "u77" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("github_accounts")
      .values({
        user_id: user.id,
        github_id: 77,
        login: "u77",
        access_token_enc: sealV1("gho_old"),
        key_id: "k9",
        scopes: [],
      })
      .execute();
    await withMigrationSettings({ tokenEncryptionKeys: SPEC }, () => up(db));
    const row = await db
      .selectFrom("github_accounts")
      .select(["access_token_enc", "key_id"])
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(row.access_token_enc).toMatch(/^v2\./);
    const cipher = createTokenCipher(SPEC);
    expect(cipher.decrypt(row.key_id, row.access_token_enc, user.id)).toBe("gho_old");
    expect(() => cipher.decrypt(row.key_id, row.access_token_enc, crypto.randomUUID())).toThrow();
  });
});
