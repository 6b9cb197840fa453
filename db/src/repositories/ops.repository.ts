import { sql } from "kysely";
import type { Conn } from "./conn";

export interface DurationPercentiles {
  p50: number;
  p95: number;
  p99: number;
  count: number;
}

type PercentileRow = { p50: string | number; p95: string | number; p99: string | number; n: string | number };
const toPercentiles = (r: PercentileRow): DurationPercentiles => ({
  p50: Math.round(Number(r.p50)),
  p95: Math.round(Number(r.p95)),
  p99: Math.round(Number(r.p99)),
  count: Number(r.n),
});

/** p50/p95/p99 duration (ms) of each pipeline step finished in the last `hours`, by step. */
export async function stepDurationPercentiles(db: Conn, hours = 24) {
  const r = await sql<PercentileRow & { step: string }>`
    select step,
           percentile_cont(0.5) within group (order by duration_ms) as p50,
           percentile_cont(0.95) within group (order by duration_ms) as p95,
           percentile_cont(0.99) within group (order by duration_ms) as p99,
           count(*) as n
    from run_steps
    where finished_at > now() - make_interval(hours => ${hours}) and duration_ms is not null
    group by step`.execute(db);
  return r.rows.map((row) => ({ step: row.step, ...toPercentiles(row) }));
}

/** p50/p95/p99 duration (ms, start to end) of the runs finished in the last `hours`. */
export async function runDurationPercentiles(db: Conn, hours = 24): Promise<DurationPercentiles | null> {
  const r = await sql<PercentileRow>`
    select percentile_cont(0.5) within group (order by ms) as p50,
           percentile_cont(0.95) within group (order by ms) as p95,
           percentile_cont(0.99) within group (order by ms) as p99,
           count(*) as n
    from (select extract(epoch from finished_at - started_at) * 1000 as ms from solve_runs
          where finished_at > now() - make_interval(hours => ${hours}) and started_at is not null) d`.execute(db);
  const row = r.rows[0];
  return row && Number(row.n) > 0 ? toPercentiles(row) : null;
}

/** The users with the most unfinished runs (running, then queued), busiest first. */
export async function busiestUsers(db: Conn, limit = 10) {
  const rows = await db
    .selectFrom("solve_runs as r")
    .innerJoin("users as u", "u.id", "r.user_id")
    .where("r.status", "in", ["queued", "running"])
    .groupBy(["u.id", "u.username"])
    .select((eb) => [
      "u.id",
      "u.username",
      eb.fn.count<string>("r.id").filterWhere("r.status", "=", "running").as("active"),
      eb.fn.count<string>("r.id").filterWhere("r.status", "=", "queued").as("waiting"),
      eb.fn.min("r.created_at").as("oldest"),
    ])
    .orderBy(sql`count(r.id)`, "desc")
    .orderBy("oldest", "asc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    userId: r.id,
    username: r.username,
    active: Number(r.active),
    waiting: Number(r.waiting),
  }));
}

/** Unfinished runs, oldest first: what an operator may cancel. */
export async function runsInFlight(db: Conn, limit = 20) {
  const rows = await db
    .selectFrom("solve_runs as r")
    .innerJoin("users as u", "u.id", "r.user_id")
    .where("r.status", "in", ["queued", "running"])
    .select([
      "r.id",
      "u.username",
      "r.kind",
      "r.status",
      "r.current_step",
      "r.created_at",
      "r.started_at",
      "r.cancel_requested_at",
    ])
    .orderBy("r.created_at", "asc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    username: r.username,
    kind: r.kind,
    status: r.status,
    currentStep: r.current_step,
    createdAt: r.created_at.toISOString(),
    startedAt: r.started_at?.toISOString() ?? null,
    cancelling: r.cancel_requested_at !== null,
  }));
}
