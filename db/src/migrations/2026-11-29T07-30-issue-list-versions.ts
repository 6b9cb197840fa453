import { sql, type Kysely } from "kysely";

/**
 * A version of each user's issue list, bumped by Postgres itself whenever a row the list reads
 * changes (issues, solutions, pull requests, and the runs' fields the list shows), so the API can
 * keep a serialized page and know for sure it is still current: no writer can forget to bump it.
 *
 * The triggers are deferred to commit: the bump becomes visible in the same instant as the change
 * (a reader never sees the new version with the old rows), and the row lock the bump takes is held
 * only while committing, after every other lock the transaction takes, so writers of one user
 * queue for it briefly but cannot deadlock on it. There is no foreign key: deleting a user deletes
 * their issues, whose triggers bump a version after the user row is gone.
 */
const TABLES: { table: string; update: string }[] = [
  { table: "issues", update: "update" },
  { table: "solutions", update: "update" },
  { table: "pull_requests", update: "update" },
  // A run's progress (status, step, tokens) changes often and the list shows none of it.
  { table: "solve_runs", update: "update of user_id, issue_id, input, created_at" },
];

export async function up(db: Kysely<any>): Promise<void> {
  await sql`create table issue_list_versions (user_id uuid primary key, version bigint not null)`.execute(db);
  await sql`
    create function bump_issue_list_version() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then
        insert into issue_list_versions (user_id, version) values (old.user_id, 1)
        on conflict (user_id) do update set version = issue_list_versions.version + 1;
      end if;
      if tg_op = 'INSERT' or (tg_op = 'UPDATE' and new.user_id is distinct from old.user_id) then
        insert into issue_list_versions (user_id, version) values (new.user_id, 1)
        on conflict (user_id) do update set version = issue_list_versions.version + 1;
      end if;
      return null;
    end $$`.execute(db);
  // TRUNCATE fires no row trigger: it moves every user's list on.
  await sql`
    create function bump_every_issue_list_version() returns trigger language plpgsql as $$
    begin
      insert into issue_list_versions (user_id, version) select id, 1 from users
      on conflict (user_id) do update set version = issue_list_versions.version + 1;
      return null;
    end $$`.execute(db);
  for (const { table, update } of TABLES) {
    await sql`
      create trigger ${sql.raw(`${table}_issue_list_truncate`)} after truncate on ${sql.table(table)}
      for each statement execute function bump_every_issue_list_version()`.execute(db);
    await sql`
      create constraint trigger ${sql.raw(`${table}_issue_list_version`)}
      after insert or ${sql.raw(update)} or delete on ${sql.table(table)}
      deferrable initially deferred
      for each row execute function bump_issue_list_version()`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const { table } of TABLES) {
    await sql`drop trigger ${sql.raw(`${table}_issue_list_version`)} on ${sql.table(table)}`.execute(db);
    await sql`drop trigger ${sql.raw(`${table}_issue_list_truncate`)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop function bump_issue_list_version()`.execute(db);
  await sql`drop function bump_every_issue_list_version()`.execute(db);
  await sql`drop table issue_list_versions`.execute(db);
}
