import { sql, type Kysely } from "kysely";

/**
 * The issue list is read a page at a time, newest first with the id breaking ties (issues a sync
 * stores together share a creation time): the index follows that order, so a page's start is one
 * index lookup. It replaces the index ordered by issue number, which no read uses any more.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index issues_user_newest_id on issues (user_id, created_at desc, id desc)`.execute(db);
  await db.schema.dropIndex("issues_user_newest").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index issues_user_newest on issues (user_id, created_at desc, issue_number desc)`.execute(db);
  await db.schema.dropIndex("issues_user_newest_id").execute();
}
