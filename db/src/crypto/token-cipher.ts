import crypto from "node:crypto";

/**
 * AES-256-GCM for access tokens at rest. Keys come from `TOKEN_ENCRYPTION_KEYS`
 * (`id:base64key,...`): the first encrypts, every listed key decrypts, so keys can rotate.
 * Stored form: `v2.<iv>.<tag>.<ciphertext>` (base64url) beside the key id column. The owner's user
 * id is the associated data, so a ciphertext copied onto another user's row does not decrypt; the
 * tag is pinned to 16 bytes. `v1` (no associated data) is only read by the migration that
 * re-encrypts it.
 */
export interface TokenCipher {
  currentKeyId: string;
  encrypt(plain: string, userId: string): { keyId: string; value: string };
  decrypt(keyId: string, value: string, userId: string): string;
  /** Reads a pre-binding `v1` value; for the re-encryption migration only. */
  decryptLegacy(keyId: string, value: string): string;
}

const TAG_BYTES = 16;
const aad = (userId: string) => Buffer.from(`fixloop:user:${userId}`, "utf8");

export function parseKeys(spec: string): Map<string, Buffer> {
  const keys = new Map<string, Buffer>();
  for (const part of spec
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const idx = part.indexOf(":");
    if (idx <= 0) throw new Error("TOKEN_ENCRYPTION_KEYS entries must look like id:base64key");
    const key = Buffer.from(part.slice(idx + 1), "base64");
    if (key.length !== 32) throw new Error(`Encryption key ${part.slice(0, idx)} must be 32 bytes (base64)`);
    keys.set(part.slice(0, idx), key);
  }
  if (keys.size === 0) throw new Error("TOKEN_ENCRYPTION_KEYS is empty");
  return keys;
}

export function createTokenCipher(spec: string): TokenCipher {
  const keys = parseKeys(spec);
  const [currentKeyId] = keys.keys();
  if (!currentKeyId) throw new Error("TOKEN_ENCRYPTION_KEYS is empty");
  const keyOf = (keyId: string) => {
    const key = keys.get(keyId);
    if (!key) throw new Error(`Unknown encryption key id ${keyId}`);
    return key;
  };
  const open = (keyId: string, value: string, version: "v1" | "v2", userId: string | null) => {
    const [v, iv, tag, enc] = value.split(".");
    if (v !== version || !iv || !tag || !enc) throw new Error("Malformed encrypted value");
    const tagBytes = Buffer.from(tag, "base64url");
    if (tagBytes.length !== TAG_BYTES) throw new Error("Malformed encrypted value");
    const d = crypto.createDecipheriv("aes-256-gcm", keyOf(keyId), Buffer.from(iv, "base64url"), {
      authTagLength: TAG_BYTES,
    });
    if (userId !== null) d.setAAD(aad(userId));
    d.setAuthTag(tagBytes);
    return Buffer.concat([d.update(Buffer.from(enc, "base64url")), d.final()]).toString("utf8");
  };
  return {
    currentKeyId,
    encrypt(plain, userId) {
      const iv = crypto.randomBytes(12);
      const c = crypto.createCipheriv("aes-256-gcm", keyOf(currentKeyId), iv, { authTagLength: TAG_BYTES });
      c.setAAD(aad(userId));
      const enc = Buffer.concat([c.update(plain, "utf8"), c.final()]);
      const tag = c.getAuthTag();
      return {
        keyId: currentKeyId,
        value: ["v2", iv.toString("base64url"), tag.toString("base64url"), enc.toString("base64url")].join("."),
      };
    },
    decrypt: (keyId, value, userId) => open(keyId, value, "v2", userId),
    decryptLegacy: (keyId, value) => open(keyId, value, "v1", null),
  };
}
