import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** Generated once per install; the services' passwords never leave this file except into their own URLs. */
const GENERATORS = {
  TOKEN_ENCRYPTION_KEYS: () => `local1:${crypto.randomBytes(32).toString("base64")}`,
  /** The embedded Postgres cluster's superuser (migrating roles, creating databases); never given to the app. */
  POSTGRES_ADMIN_PASSWORD: () => crypto.randomBytes(24).toString("hex"),
  /** The app's own Postgres role: owns its database, not a superuser. */
  POSTGRES_APP_PASSWORD: () => crypto.randomBytes(24).toString("hex"),
  /** `requirepass` of the local redis-server. */
  REDIS_PASSWORD: () => crypto.randomBytes(24).toString("hex"),
} as const;

type SecretName = keyof typeof GENERATORS;

/**
 * The named secrets from `dataDir/secrets.json` (mode 600), generating and adding any that are
 * missing, so an install made before a secret existed gains it on its next start.
 */
function loadOrCreate<K extends SecretName>(dataDir: string, names: readonly K[]): Record<K, string> {
  const file = path.join(dataDir, "secrets.json");
  const stored: Partial<Record<SecretName, string>> = fs.existsSync(file)
    ? JSON.parse(fs.readFileSync(file, "utf8"))
    : {};
  const missing = names.filter((n) => typeof stored[n] !== "string" || !stored[n]);
  if (missing.length) {
    for (const n of missing) stored[n] = GENERATORS[n]();
    fs.mkdirSync(dataDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(stored, null, 2), { mode: 0o600 });
    fs.renameSync(tmp, file);
  }
  return Object.fromEntries(names.map((n) => [n, stored[n] as string])) as Record<K, string>;
}

/**
 * Secrets a fresh install needs but nobody configured: generated once and kept under the data
 * folder, so restarts keep sessions and encrypted tokens readable. These go to the app's settings.
 */
export function loadOrCreateLocalSecrets(dataDir: string): { TOKEN_ENCRYPTION_KEYS: string } {
  return loadOrCreate(dataDir, ["TOKEN_ENCRYPTION_KEYS"]);
}

/** Passwords of the embedded Postgres and the local Redis, kept beside the app's secrets. */
export function loadOrCreateServiceSecrets(dataDir: string) {
  return loadOrCreate(dataDir, ["POSTGRES_ADMIN_PASSWORD", "POSTGRES_APP_PASSWORD", "REDIS_PASSWORD"]);
}
