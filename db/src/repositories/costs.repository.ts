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
  const row = await db.selectFrom("users").select(["run_cost_cap_usd", "monthly_cost_cap_usd"]).where("id", "=", userId).executeTakeFirst();
  const own = { runUsd: num(row?.run_cost_cap_usd ?? null), monthlyUsd: num(row?.monthly_cost_cap_usd ?? null) };
  return {
    own,
    effective: { runUsd: own.runUsd ?? defaults.runUsd ?? null, monthlyUsd: own.monthlyUsd ?? defaults.monthlyUsd ?? null },
  };
}

export async function setSpendingCaps(db: Conn, userId: string, caps: { runUsd: number | null; monthlyUsd: number | null }): Promise<void> {
  await db.updateTable("users").set({ run_cost_cap_usd: caps.runUsd, monthly_cost_cap_usd: caps.monthlyUsd, updated_at: new Date() }).where("id", "=", userId).execute();
}

/** USD the user's runs recorded since `since` (the start of the usage period). */
export async function spentSince(db: Conn, userId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom("solve_runs")
    .select(sql<string>`coalesce(sum(cost_usd), 0)`.as("usd"))
    .where("user_id", "=", userId)
    .where("created_at", ">=", since)
    .executeTakeFirst();
  return Number(row?.usd ?? 0);
}
