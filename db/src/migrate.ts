import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from "kysely";
import pg from "pg";
import { createDb } from "./client";
import { withMigrationSettings, type MigrationSettings } from "./migration-settings";
import { MIGRATIONS } from "./migrations.index";

/** The migrations of migrations.index.ts, loaded when a run needs them. */
class StaticProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const entries = await Promise.all(Object.entries(MIGRATIONS).map(async ([name, load]) => [name, await load()]));
    return Object.fromEntries(entries) as Record<string, Migration>;
  }
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
