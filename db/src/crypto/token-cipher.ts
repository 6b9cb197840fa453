import crypto from "node:crypto";

/**
 * AES-256-GCM for access tokens at rest. Keys come from `TOKEN_ENCRYPTION_KEYS`
 * (`id:base64key,...`): the first encrypts, every listed key decrypts, so keys can rotate.
 * Stored form: `v1.<iv>.<tag>.<ciphertext>` (base64url) beside the key id column.
 */
export interface TokenCipher {
  currentKeyId: string;
  encrypt(plain: string): { keyId: string; value: string };
  decrypt(keyId: string, value: string): string;
}

export function parseKeys(spec: string): Map<string, Buffer> {
  const keys = new Map<string, Buffer>();
  for (const part of spec.split(",").map((s) => s.trim()).filter(Boolean)) {
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
  return {
    currentKeyId,
    encrypt(plain) {
      const key = keys.get(currentKeyId) as Buffer;
      const iv = crypto.randomBytes(12);
      const c = crypto.createCipheriv("aes-256-gcm", key, iv);
      const enc = Buffer.concat([c.update(plain, "utf8"), c.final()]);
      const tag = c.getAuthTag();
      return { keyId: currentKeyId, value: ["v1", iv.toString("base64url"), tag.toString("base64url"), enc.toString("base64url")].join(".") };
    },
    decrypt(keyId, value) {
      const key = keys.get(keyId);
      if (!key) throw new Error(`Unknown encryption key id ${keyId}`);
      const [v, iv, tag, enc] = value.split(".");
      if (v !== "v1" || !iv || !tag || !enc) throw new Error("Malformed encrypted value");
      const d = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
      d.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([d.update(Buffer.from(enc, "base64url")), d.final()]).toString("utf8");
    },
  };
}
