import type { Kysely } from "kysely";

/**
 * Every GitHub webhook delivery looks its repository up by GitHub id across all users (a
 * repository renamed or transferred since the last sync is known by its id only).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("repositories_github_id").on("repositories").column("github_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("repositories_github_id").execute();
}
