import type { Kysely } from "kysely";

/** The timed pull-request poll asks which repositories delivered a GitHub webhook lately. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("webhook_events_provider_received")
    .on("webhook_events")
    .columns(["provider", "received_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("webhook_events_provider_received").execute();
}
