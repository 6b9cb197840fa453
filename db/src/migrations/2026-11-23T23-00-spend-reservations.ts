import { sql, type Kysely } from "kysely";

/**
 * Model requests are reserved before they are sent: a row starts `reserved` at the request's
 * worst case (`reserved_usd`, also its `cost_usd` until settled), then becomes `settled` at the
 * real cost, `unconfirmed` at the worst case when the real cost never arrived (timeout, cancel
 * after sending, crash), or `released` at 0 when it was never sent. Spending sums `cost_usd`,
 * reservations in flight included. Rows written before this migration were settled. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("model_requests")
    .addColumn("state", "text", (c) =>
      c
        .notNull()
        .defaultTo("settled")
        .check(sql`state in ('reserved', 'settled', 'unconfirmed', 'released')`),
    )
    .addColumn("reserved_usd", "numeric(12, 6)", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`reserved_usd >= 0`),
    )
    .addColumn("outcome", "text")
    .addColumn("settled_at", "timestamptz")
    .execute();
  await db.schema
    .createIndex("model_requests_reserved_idx")
    .on("model_requests")
    .column("run_id")
    .where(sql.ref("state"), "=", "reserved")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("model_requests_reserved_idx").execute();
  await db.schema
    .alterTable("model_requests")
    .dropColumn("state")
    .dropColumn("reserved_usd")
    .dropColumn("outcome")
    .dropColumn("settled_at")
    .execute();
}
