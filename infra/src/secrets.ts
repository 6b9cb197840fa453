import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/**
 * Secrets a fresh install needs but nobody configured: generated once and kept under the data
 * folder (mode 600), so restarts keep sessions and encrypted tokens readable.
 */
export function loadOrCreateLocalSecrets(dataDir: string): { TOKEN_ENCRYPTION_KEYS: string } {
  const file = path.join(dataDir, "secrets.json");
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, "utf8"));
  fs.mkdirSync(dataDir, { recursive: true });
  const secrets = { TOKEN_ENCRYPTION_KEYS: `local1:${crypto.randomBytes(32).toString("base64")}` };
  fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
