import { sql, type Kysely } from "kysely";

/**
 * Fixloop's GitHub App created from /ops by GitHub's manifest flow: its id, slug and client id in
 * clear, its client secret, webhook secret and private key encrypted (TOKEN_ENCRYPTION_KEYS, the
 * row's own id as associated data). The newest row is the one in use. Beside it, the manifest
 * flow's `state`s: stored hashed, bound to the operator and the session that started the flow,
 * single use and short-lived.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("github_app_configs")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("app_id", "bigint", (c) => c.notNull().unique())
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("owner_login", "text", (c) => c.notNull())
    .addColumn("html_url", "text", (c) => c.notNull())
    .addColumn("client_id", "text", (c) => c.notNull())
    .addColumn("key_id", "text", (c) => c.notNull())
    .addColumn("client_secret_enc", "text", (c) => c.notNull())
    .addColumn("webhook_secret_enc", "text", (c) => c.notNull())
    .addColumn("private_key_enc", "text", (c) => c.notNull())
    .addColumn("permissions", "jsonb", (c) => c.notNull())
    .addColumn("events", sql`text[]`, (c) => c.notNull())
    .addColumn("created_by", "uuid", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("github_app_configs_newest").on("github_app_configs").column("created_at").execute();
  await db.schema
    .createTable("github_app_manifest_states")
    .addColumn("state_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("session_hash", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("used_at", "timestamptz")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("github_app_manifest_states").execute();
  await db.schema.dropTable("github_app_configs").execute();
}
