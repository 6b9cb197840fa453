import crypto from "node:crypto";

/** A random URL-safe secret with an optional readable prefix (`flp_` for API tokens). */
export function randomSecret(prefix = "", bytes = 32): string {
  return prefix + crypto.randomBytes(bytes).toString("base64url");
}

/** Secrets are stored only as SHA-256 digests; they are high-entropy, so no slow hash is needed. */
export function hashSecret(secret: string): string {
  return crypto.createHash("sha256").update(secret).digest("hex");
}

export const SESSION_COOKIE = "fixloop_session";
export const API_TOKEN_PREFIX = "flp_";
