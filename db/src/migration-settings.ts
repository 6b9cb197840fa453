/**
 * Settings a migration may need beyond the database (e.g. keys to re-encrypt stored tokens).
 * `migrateToLatest` sets them for the duration of its run; migrations read them here.
 */
export interface MigrationSettings {
  /** `TOKEN_ENCRYPTION_KEYS` of the app running the migration. */
  tokenEncryptionKeys?: string;
}

let current: MigrationSettings = {};

export const migrationSettings = (): MigrationSettings => current;

export async function withMigrationSettings<T>(settings: MigrationSettings, run: () => Promise<T>): Promise<T> {
  const before = current;
  current = settings;
  try {
    return await run();
  } finally {
    current = before;
  }
}
