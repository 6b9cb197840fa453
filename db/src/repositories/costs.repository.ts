import { sql, type Kysely, type Transaction } from "kysely";
import type { Database } from "../schema";

type Conn = Kysely<Database> | Transaction<Database>;

/** Operator defaults (RUN_COST_CAP_USD, MONTHLY_COST_CAP_USD); undefined means no cap. */
export interface CapDefaults {
  runUsd?: number;
  monthlyUsd?: number;
}

export interface SpendingCaps {
  /** The user's own settings; null falls back to the default. */
  own: { runUsd: number | null; monthlyUsd: number | null };
  /** What applies: the user's value, else the operator's default, else null (no cap). */
  effective: { runUsd: number | null; monthlyUsd: number | null };
}

const num = (v: string | null): number | null => (v === null ? null : Number(v));

export async function spendingCaps(db: Conn, userId: string, defaults: CapDefaults): Promise<SpendingCaps> {
  const row = await db
    .selectFrom("users")
    .select(["run_cost_cap_usd", "monthly_cost_cap_usd"])
    .where("id", "=", userId)
    .executeTakeFirst();
  const own = { runUsd: num(row?.run_cost_cap_usd ?? null), monthlyUsd: num(row?.monthly_cost_cap_usd ?? null) };
  return {
    own,
    effective: {
      runUsd: own.runUsd ?? defaults.runUsd ?? null,
      monthlyUsd: own.monthlyUsd ?? defaults.monthlyUsd ?? null,
    },
  };
}

/** The users table's writer keeps the caps; re-exported here beside their reader. */
export { setSpendingCaps } from "./users.repository";

/**
 * USD the user's model requests cost since `since` (the start of the usage period), failed runs
 * included: settled requests at their real cost, unconfirmed ones at their worst case. `heldUsd`
 * is what requests in flight have reserved (their worst case) and also counts against the caps.
 */
export async function spentSince(db: Conn, userId: string, since: Date): Promise<number> {
  return (await spendingSince(db, userId, since)).spentUsd;
}

export async function spendingSince(
  db: Conn,
  userId: string,
  since: Date,
  until?: Date,
): Promise<{ spentUsd: number; heldUsd: number }> {
  let q = db
    .selectFrom("model_requests")
    .select([
      sql<string>`coalesce(sum(cost_usd) filter (where state <> 'reserved'), 0)`.as("spent"),
      sql<string>`coalesce(sum(cost_usd) filter (where state = 'reserved'), 0)`.as("held"),
    ])
    .where("user_id", "=", userId)
    .where("created_at", ">=", since);
  if (until) q = q.where("created_at", "<", until);
  const row = await q.executeTakeFirst();
  return { spentUsd: Number(row?.spent ?? 0), heldUsd: Number(row?.held ?? 0) };
}

/** USD the run's model requests cost so far (requests of failed or retried steps included), reservations in flight excluded. */
export async function runSpent(db: Conn, runId: string): Promise<number> {
  const row = await db
    .selectFrom("model_requests")
    .select(sql<string>`coalesce(sum(cost_usd), 0)`.as("usd"))
    .where("run_id", "=", runId)
    .where("state", "<>", "reserved")
    .executeTakeFirst();
  return Number(row?.usd ?? 0);
}

/** A run's model requests, oldest first. */
export async function runModelRequests(db: Conn, runId: string) {
  const rows = await db
    .selectFrom("model_requests")
    .selectAll()
    .where("run_id", "=", runId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    step: r.step,
    purpose: r.purpose,
    modelId: r.model_id,
    tokensIn: r.tokens_in,
    tokensOut: r.tokens_out,
    costUsd: Number(r.cost_usd),
    attempts: r.attempts,
    durationMs: r.duration_ms,
    state: r.state,
    reservedUsd: Number(r.reserved_usd),
    outcome: r.outcome,
    at: r.created_at.toISOString(),
  }));
}
