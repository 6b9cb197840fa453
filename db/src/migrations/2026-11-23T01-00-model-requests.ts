import { sql, type Kysely } from "kysely";

/**
 * One row per model request, written as soon as its answer arrives: what each request cost,
 * including requests of steps that later failed or were cancelled. Spending caps add these up.
 * Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("model_requests")
    .addColumn("id", "uuid", (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn("run_id", "uuid", (c) => c.notNull().references("solve_runs.id").onDelete("cascade"))
    .addColumn("user_id", "uuid", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("step", "text", (c) => c.notNull())
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("model_id", "text", (c) => c.notNull())
    .addColumn("tokens_in", "integer", (c) => c.notNull().check(sql`tokens_in >= 0`))
    .addColumn("tokens_out", "integer", (c) => c.notNull().check(sql`tokens_out >= 0`))
    .addColumn("cost_usd", "numeric(12, 6)", (c) => c.notNull().check(sql`cost_usd >= 0`))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("model_requests_run_idx")
    .on("model_requests")
    .columns(["run_id", "created_at"])
    .execute();
  await db.schema
    .createIndex("model_requests_user_idx")
    .on("model_requests")
    .columns(["user_id", "created_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("model_requests").execute();
}
