import type { Kysely } from "kysely";

/**
 * The claims of the worker attempts that run a solution's jobs now (see claims.ts): a tests re-run
 * of its current revision, and its pull-request job (opening the pull request or pushing a revision
 * to it). Each is written when a worker takes the job and required by every write of that job's
 * state, so a worker whose job was handed to another changes nothing. Two columns: a re-run and a
 * pull-request job of one solution never take each other's claim.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("solutions")
    .addColumn("tests_claim_token", "uuid")
    .addColumn("pr_claim_token", "uuid")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("solutions").dropColumn("tests_claim_token").dropColumn("pr_claim_token").execute();
}
