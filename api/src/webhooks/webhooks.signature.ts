import crypto from "node:crypto";

/**
 * Checks GitHub's `X-Hub-Signature-256` (`sha256=` and the hex HMAC-SHA256 of the raw body with
 * the webhook secret) in constant time. An empty secret matches nothing.
 */
export function validGithubSignature(secret: string, rawBody: string, header: string): boolean {
  const m = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!secret || !m?.[1]) return false;
  const expected = crypto.createHmac("sha256", secret).update(rawBody).digest();
  return crypto.timingSafeEqual(expected, Buffer.from(m[1], "hex"));
}
