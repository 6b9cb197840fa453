import { sql, type Kysely } from "kysely";

/**
 * A GitHub delivery names a repository, a pull request or an issue, and Fixloop looks it up across
 * every user's rows: by name without case (`lower(...)`), or by the GitHub id. Without these
 * indexes each delivery read the whole table, so ingestion slowed with every row any user stored.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index repositories_full_name_lower on repositories (lower(full_name))`.execute(db);
  await sql`create index pull_requests_repo_number_lower on pull_requests (lower(repo_full_name), pr_number)`.execute(
    db,
  );
  await sql`create index pull_requests_head_branch_lower on pull_requests (lower(head_repo_full_name), branch_name)`.execute(
    db,
  );
  await db.schema.createIndex("issues_github_id").on("issues").column("github_id").execute();
  await sql`create index issues_on_github_lower on issues (lower(coalesce(upstream_full_name, repo_full_name)), issue_number)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of [
    "issues_on_github_lower",
    "issues_github_id",
    "pull_requests_head_branch_lower",
    "pull_requests_repo_number_lower",
    "repositories_full_name_lower",
  ])
    await db.schema.dropIndex(name).execute();
}
