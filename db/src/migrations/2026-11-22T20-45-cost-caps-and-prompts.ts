import { sql, type Kysely } from "kysely";

/**
 * Spending caps per user (null: the operator's default applies) and, per run step, the exact
 * prompt a model was sent plus the estimate made before sending it. Frozen once landed.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("run_cost_cap_usd", "numeric(12, 6)", (c) => c.check(sql`run_cost_cap_usd >= 0`))
    .addColumn("monthly_cost_cap_usd", "numeric(12, 6)", (c) => c.check(sql`monthly_cost_cap_usd >= 0`))
    .execute();
  await db.schema
    .alterTable("run_steps")
    .addColumn("prompt", "jsonb")
    .addColumn("estimate_usd", "numeric(12, 6)")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("run_steps").dropColumn("prompt").dropColumn("estimate_usd").execute();
  await db.schema.alterTable("users").dropColumn("run_cost_cap_usd").dropColumn("monthly_cost_cap_usd").execute();
}
