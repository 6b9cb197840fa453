import { sql } from "kysely";
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

/** Failed runs by error code (all time). */
export async function failuresByCode(db: Conn) {
  const rows = await db
    .selectFrom("solve_runs")
    .select(["error_code", (eb) => eb.fn.countAll<string>().as("n")])
    .where("status", "=", "failed")
    .groupBy("error_code")
    .execute();
  return rows.map((r) => ({ code: r.error_code, n: Number(r.n) }));
}

/** Median and 95th percentile of run durations (seconds) over the last 24 hours. */
export async function runDurations(db: Conn) {
  const r = await sql<{ p50: number | null; p95: number | null }>`
    select percentile_cont(0.5) within group (order by extract(epoch from finished_at - started_at)) as p50,
           percentile_cont(0.95) within group (order by extract(epoch from finished_at - started_at)) as p95
    from solve_runs where finished_at > now() - interval '24 hours' and started_at is not null`.execute(db);
  return r.rows[0];
}

/** Median and 95th percentile of step durations (seconds) over the last 24 hours, by step. */
export async function stepDurations(db: Conn) {
  const r = await sql<{ step: string; p50: number; p95: number }>`
    select step, percentile_cont(0.5) within group (order by duration_ms) / 1000.0 as p50,
           percentile_cont(0.95) within group (order by duration_ms) / 1000.0 as p95
    from run_steps where finished_at > now() - interval '24 hours' and duration_ms is not null group by step`.execute(
    db,
  );
  return r.rows;
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
