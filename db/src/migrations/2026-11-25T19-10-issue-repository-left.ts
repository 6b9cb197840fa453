import { sql, type Kysely } from "kysely";

/**
 * The time the repository sync removed an issue's repository from its user's list (GitHub no
 * longer shows it to them); null while it is listed. It is written in the removal's transaction,
 * so the runs of such issues are stopped, and new ones refused, even when whatever followed the
 * removal failed; the removal itself clears the issues' repository id, which cannot say it.
 * Issues of repositories removed before this column are marked here.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("issues").addColumn("repository_left_at", "timestamptz").execute();
  await db.schema
    .createIndex("issues_repository_left_idx")
    .on("issues")
    .column("user_id")
    .where(sql.ref("repository_left_at"), "is not", null)
    .execute();
  await sql`update issues set repository_left_at = now()
    where not is_imported and repository_id is null
      and not exists (
        select 1 from repositories
        where repositories.user_id = issues.user_id and lower(repositories.full_name) = lower(issues.repo_full_name)
      )`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("issues").dropColumn("repository_left_at").execute();
}
