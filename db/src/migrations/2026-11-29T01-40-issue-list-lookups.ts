import { sql, type Kysely } from "kysely";

/**
 * The issue list reads, for each of the user's issues, its newest open pull request, its newest
 * pending solution and its newest run. Without an index on `issue_id` each of those lookups read
 * the whole table, so the list slowed with every run any user made. Partial indexes keep the two
 * status-filtered lookups to the rows they can return.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index solve_runs_issue_newest on solve_runs (issue_id, created_at desc)`.execute(db);
  await sql`create index solutions_issue_pending_newest on solutions (issue_id, created_at desc) where status = 'pending'`.execute(
    db,
  );
  await sql`create index pull_requests_issue_open_newest on pull_requests (issue_id, created_at desc) where status = 'open'`.execute(
    db,
  );
  await sql`create index issues_user_newest on issues (user_id, created_at desc, issue_number desc)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of [
    "issues_user_newest",
    "pull_requests_issue_open_newest",
    "solutions_issue_pending_newest",
    "solve_runs_issue_newest",
  ])
    await db.schema.dropIndex(name).execute();
}
