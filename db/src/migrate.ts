import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from "kysely";
import pg from "pg";
import { createDb } from "./client";
import { withMigrationSettings, type MigrationSettings } from "./migration-settings";

class StaticProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const found = await loadFromDisk();
    const out: Record<string, Migration> = {};
    for (const [file, mod] of Object.entries(found)) {
      out[file.replace(/^.*\//, "").replace(/\.ts$/, "")] = mod;
    }
    return out;
  }
}

async function loadFromDisk(): Promise<Record<string, Migration>> {
  const fs = await import("node:fs/promises");
  const path = await import("node:path");
  const url = await import("node:url");
  const dir = path.join(path.dirname(url.fileURLToPath(import.meta.url)), "migrations");
  const out: Record<string, Migration> = {};
  for (const f of (await fs.readdir(dir)).filter((f) => f.endsWith(".ts")).sort()) {
    out[f] = (await import(url.pathToFileURL(path.join(dir, f)).href)) as Migration;
  }
  return out;
}

/** Arbitrary constant naming the advisory lock that serialises concurrent migration runs. */
const MIGRATION_LOCK_KEY = 727_001;

/**
 * Brings the database at `url` to the latest schema. Safe when several processes start at once:
 * a session-level advisory lock serialises them and the later ones find nothing to do.
 * `settings` carries what a data migration needs (the token keys to re-encrypt stored tokens).
 */
export async function migrateToLatest(url: string, settings: MigrationSettings = {}): Promise<MigrationResultSet> {
  const lockClient = new pg.Client({ connectionString: url });
  await lockClient.connect();
  const db = createDb(url, { max: 2 });
  try {
    await lockClient.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    const migrator = new Migrator({ db, provider: new StaticProvider() });
    const result = await withMigrationSettings(settings, () => migrator.migrateToLatest());
    if (result.error) throw result.error;
    return result;
  } finally {
    await lockClient.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
    await lockClient.end().catch(() => {});
    await db.destroy();
  }
}
