import { sql, type Kysely, type Transaction } from "kysely";
import type { Database, StepId } from "../schema";

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

export async function setSpendingCaps(
  db: Conn,
  userId: string,
  caps: { runUsd: number | null; monthlyUsd: number | null },
): Promise<void> {
  await db
    .updateTable("users")
    .set({ run_cost_cap_usd: caps.runUsd, monthly_cost_cap_usd: caps.monthlyUsd, updated_at: new Date() })
    .where("id", "=", userId)
    .execute();
}

/** USD the user's model requests cost since `since` (the start of the usage period), failed runs included. */
export async function spentSince(db: Conn, userId: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom("model_requests")
    .select(sql<string>`coalesce(sum(cost_usd), 0)`.as("usd"))
    .where("user_id", "=", userId)
    .where("created_at", ">=", since)
    .executeTakeFirst();
  return Number(row?.usd ?? 0);
}

/** USD the run's model requests cost so far, requests of failed or retried steps included. */
export async function runSpent(db: Conn, runId: string): Promise<number> {
  const row = await db
    .selectFrom("model_requests")
    .select(sql<string>`coalesce(sum(cost_usd), 0)`.as("usd"))
    .where("run_id", "=", runId)
    .executeTakeFirst();
  return Number(row?.usd ?? 0);
}

/** One model request and what it cost. */
export interface ModelRequest {
  purpose: string;
  modelId: string;
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
  attempts: number;
  durationMs: number;
}

/** A model request as the ledger stores it: the run, user and step it was made for. */
export interface ModelRequestRecord extends ModelRequest {
  runId: string;
  userId: string;
  step: StepId;
}

/** Records one model request as soon as its answer arrived. */
export async function recordModelRequest(db: Conn, r: ModelRequestRecord): Promise<void> {
  await db
    .insertInto("model_requests")
    .values({
      run_id: r.runId,
      user_id: r.userId,
      step: r.step,
      purpose: r.purpose,
      model_id: r.modelId,
      tokens_in: Math.max(0, Math.round(r.tokensIn)),
      tokens_out: Math.max(0, Math.round(r.tokensOut)),
      cost_usd: Math.max(0, r.costUsd),
      attempts: r.attempts,
      duration_ms: Math.max(0, Math.round(r.durationMs)),
    })
    .execute();
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
    at: r.created_at.toISOString(),
  }));
}
