import { sql, type Kysely } from "kysely";

/**
 * Fixloop as a GitHub App: each installation (an account, all or selected repositories, suspended
 * or not), the repositories GitHub says it reaches, and the Fixloop users it serves (the user who
 * installed it, or whose own account it is on). Kept from installation webhooks and the setup
 * redirect; no token is stored (installation tokens are minted per job).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("github_installations")
    .addColumn("installation_id", "bigint", (c) => c.primaryKey())
    .addColumn("account_login", "text", (c) => c.notNull())
    .addColumn("account_id", "bigint", (c) => c.notNull())
    .addColumn("account_type", "text", (c) => c.notNull())
    .addColumn("repository_selection", "text", (c) => c.notNull())
    .addColumn("installed_by_github_id", "bigint")
    .addColumn("suspended_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable("github_installation_repositories")
    .addColumn("installation_id", "bigint", (c) =>
      c.notNull().references("github_installations.installation_id").onDelete("cascade"),
    )
    .addColumn("github_id", "bigint", (c) => c.notNull())
    .addColumn("full_name", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("github_installation_repositories_pkey", ["installation_id", "github_id"])
    .execute();
  await db.schema
    .createIndex("github_installation_repositories_by_repo")
    .on("github_installation_repositories")
    .column("github_id")
    .execute();
  await db.schema
    .createTable("github_installation_users")
    .addColumn("installation_id", "bigint", (c) =>
      c.notNull().references("github_installations.installation_id").onDelete("cascade"),
    )
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("github_installation_users_pkey", ["installation_id", "user_id"])
    .execute();
  await db.schema
    .createIndex("github_installation_users_by_user")
    .on("github_installation_users")
    .column("user_id")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("github_installation_users").execute();
  await db.schema.dropTable("github_installation_repositories").execute();
  await db.schema.dropTable("github_installations").execute();
}
