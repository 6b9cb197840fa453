import { migrateToLatest } from "@fixloop/db";
import { DATA_DIR } from "./paths";
import { ensureAppDatabase, loadOrCreateLocalSecrets, startServices } from "@fixloop/testkit/services";

// `npm run db:migrate`: migrates DATABASE_URL, or the embedded cluster under .data when unset.
const services = await startServices({ dataDir: DATA_DIR, databaseUrl: process.env.DATABASE_URL, redisUrl: "unused" });
// Stored tokens may need re-encrypting: the embedded setup keeps its keys under .data.
const tokenEncryptionKeys =
  process.env.TOKEN_ENCRYPTION_KEYS ??
  (process.env.DATABASE_URL ? undefined : loadOrCreateLocalSecrets(DATA_DIR).TOKEN_ENCRYPTION_KEYS);
try {
  // Deployments (docker compose) give the migration job the superuser too: it creates or updates
  // DATABASE_URL's role (owner of its database, not a superuser) before migrating as that role.
  const adminUrl = process.env.DATABASE_ADMIN_URL;
  if (adminUrl && process.env.DATABASE_URL) {
    const app = new URL(process.env.DATABASE_URL);
    const name = decodeURIComponent(app.pathname.slice(1));
    const role = decodeURIComponent(app.username);
    await ensureAppDatabase(adminUrl, name, role, decodeURIComponent(app.password));
    console.log(`Database ${name} belongs to role ${role} (not a superuser).`);
  }
  const result = await migrateToLatest(services.databaseUrl, { tokenEncryptionKeys });
  const applied = result.results?.filter((r) => r.status === "Success").map((r) => r.migrationName) ?? [];
  console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Database schema is up to date.");
} finally {
  await services.stop();
}
