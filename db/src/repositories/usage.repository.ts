import { sql, type Kysely, type Transaction } from "kysely";
import type { Database } from "../schema";
import { type PlanId, DEFAULT_PLAN, FALLBACK_PERIOD_DAYS, PLANS, isPlanId } from "@fixloop/contract";

type Conn = Kysely<Database> | Transaction<Database>;
const DAY_MS = 86_400_000;

export interface UsagePeriod {
  plan: PlanId;
  periodStart: Date;
  limit: number;
}

/**
 * The caller's plan and the start of their current billing period: the subscription's
 * current_period_start (rolled forward in 30-day steps if it has lapsed), else 30-day periods
 * counted from the account's creation.
 */
export async function currentUsagePeriod(db: Conn, userId: string, now = new Date()): Promise<UsagePeriod> {
  const row = await db
    .selectFrom("users")
    .leftJoin("subscriptions", "subscriptions.user_id", "users.id")
    .select([
      "users.created_at",
      "subscriptions.plan",
      "subscriptions.status",
      "subscriptions.current_period_start",
      "subscriptions.current_period_end",
    ])
    .where("users.id", "=", userId)
    .executeTakeFirst();
  // A paid plan whose period ended without a renewal counts as FREE (getSubscription records the lapse).
  const lapsed = !!row?.current_period_end && row.current_period_end <= now;
  const active = row?.plan && isPlanId(row.plan) && row.status === "active" && !lapsed;
  const plan: PlanId = active && row?.plan ? row.plan : DEFAULT_PLAN;
  const anchor = row?.current_period_start ?? row?.created_at ?? now;
  const inPeriod = row?.current_period_start && row.current_period_end && row.current_period_end > now;
  const periodStart = inPeriod ? anchor : rollForward(anchor, now);
  return { plan, periodStart, limit: PLANS[plan].monthlyLimit };
}

function rollForward(anchor: Date, now: Date): Date {
  const step = FALLBACK_PERIOD_DAYS * DAY_MS;
  const n = Math.max(0, Math.floor((now.getTime() - anchor.getTime()) / step));
  return new Date(anchor.getTime() + n * step);
}

/**
 * Takes one unit of the period's quota in a single conditional upsert: the row's `used` only
 * grows while it is below the limit (-1 is unlimited), so concurrent callers cannot overshoot.
 * Returns the period charged, or null when the limit is reached.
 */
export async function reserveQuota(
  db: Conn,
  userId: string,
  plan: PlanId,
  opts: { periodStart?: Date } = {},
): Promise<{ periodStart: Date; used: number } | null> {
  const limit = PLANS[plan].monthlyLimit;
  const periodStart = opts.periodStart ?? (await currentUsagePeriod(db, userId)).periodStart;
  if (limit === 0) return null;
  const row = await sql<{ used: number }>`
    insert into usage_counters (user_id, period_start, used) values (${userId}, ${periodStart}, 1)
    on conflict (user_id, period_start) do update
      set used = usage_counters.used + 1, updated_at = now()
      where ${limit} < 0 or usage_counters.used < ${limit}
    returning used`.execute(db);
  const used = row.rows[0]?.used;
  return used === undefined ? null : { periodStart, used };
}

/** Gives one unit back to a period (never below zero). */
export async function releaseQuota(db: Conn, userId: string, periodStart: Date): Promise<void> {
  await db
    .updateTable("usage_counters")
    .set({ used: sql`greatest(used - 1, 0)`, updated_at: new Date() })
    .where("user_id", "=", userId)
    .where("period_start", "=", periodStart)
    .execute();
}

/** reserved → charged, once per run; true if this call made the transition. */
export async function chargeRunQuota(db: Conn, runId: string): Promise<boolean> {
  const r = await db
    .updateTable("solve_runs")
    .set({ quota_state: "charged" })
    .where("id", "=", runId)
    .where("quota_state", "=", "reserved")
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** reserved → released, once per run, giving the unit back in the same transaction. */
export async function releaseRunQuota(db: Conn, runId: string): Promise<boolean> {
  // Inside a caller's transaction (e.g. ending the run), the release commits with it.
  if (db.isTransaction) return releaseIn(db, runId);
  return db.transaction().execute((trx) => releaseIn(trx, runId));
}

async function releaseIn(trx: Conn, runId: string): Promise<boolean> {
  const run = await trx
    .updateTable("solve_runs")
    .set({ quota_state: "released" })
    .where("id", "=", runId)
    .where("quota_state", "=", "reserved")
    .returning(["user_id", "quota_period_start"])
    .executeTakeFirst();
  if (!run) return false;
  if (run.quota_period_start) await releaseQuota(trx, run.user_id, run.quota_period_start);
  return true;
}

/** Units used in the caller's current period (reserved and charged alike). */
export async function usedInPeriod(db: Conn, userId: string, periodStart: Date): Promise<number> {
  const row = await db
    .selectFrom("usage_counters")
    .select("used")
    .where("user_id", "=", userId)
    .where("period_start", "=", periodStart)
    .executeTakeFirst();
  return row?.used ?? 0;
}
