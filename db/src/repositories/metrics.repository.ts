import type { Conn } from "./conn";

/** Runs by status (all time). */
export async function runsByStatus(db: Conn) {
  const rows = await db
    .selectFrom("solve_runs")
    .select(["status", (eb) => eb.fn.countAll<string>().as("n")])
    .groupBy("status")
    .execute();
  return rows.map((r) => ({ status: r.status, n: Number(r.n) }));
}

/** Model tokens by model (all time). */
export async function tokensByModel(db: Conn) {
  const rows = await db
    .selectFrom("solve_runs")
    .select([
      "model_id",
      (eb) => eb.fn.sum<string>("tokens_in").as("tin"),
      (eb) => eb.fn.sum<string>("tokens_out").as("tout"),
    ])
    .groupBy("model_id")
    .execute();
  return rows.map((r) => ({ model: r.model_id, tokensIn: Number(r.tin ?? 0), tokensOut: Number(r.tout ?? 0) }));
}

/**
 * Model spend in USD by model (all time): requests settled at their real cost or recorded at their
 * worst case (unconfirmed); reservations still in flight are left out until they settle.
 */
export async function spendByModel(db: Conn) {
  const rows = await db
    .selectFrom("model_requests")
    .select(["model_id", (eb) => eb.fn.sum<string>("cost_usd").as("usd")])
    .where("state", "in", ["settled", "unconfirmed"])
    .groupBy("model_id")
    .execute();
  return rows.map((r) => ({ model: r.model_id, usd: Number(r.usd ?? 0) }));
}
