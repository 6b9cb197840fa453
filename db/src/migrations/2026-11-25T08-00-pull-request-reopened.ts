import { sql, type Kysely } from "kysely";

/** A pull request reopened on GitHub is on its timeline (`reopened`), and open again. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table pull_request_events drop constraint pull_request_events_kind_check`.execute(db);
  await sql`alter table pull_request_events add constraint pull_request_events_kind_check check (kind in ('review','review_comment','commit','check','merged','closed','reopened'))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from pull_request_events where kind = 'reopened'`.execute(db);
  await sql`alter table pull_request_events drop constraint pull_request_events_kind_check`.execute(db);
  await sql`alter table pull_request_events add constraint pull_request_events_kind_check check (kind in ('review','review_comment','commit','check','merged','closed'))`.execute(
    db,
  );
}
