import { sql, type Kysely, type Transaction } from "kysely";
import type { Database, Subscription } from "../schema";
import { type PlanId, FALLBACK_PERIOD_DAYS, PLAN_RANK } from "@fixloop/contract";
import { currentUsagePeriod } from "./usage.repository";

type Conn = Kysely<Database> | Transaction<Database>;
const DAY_MS = 86_400_000;

export const periodEndFrom = (start: Date) => new Date(start.getTime() + FALLBACK_PERIOD_DAYS * DAY_MS);
/** One billing period earlier than `end` (what a refunded payment takes back). */
export const periodBefore = (end: Date) => new Date(end.getTime() - FALLBACK_PERIOD_DAYS * DAY_MS);

/**
 * The user's subscription row, created as FREE on first read. A period that has ended rolls
 * forward in 30-day steps, and a paid plan not renewed by then lapses to FREE (one conditional
 * update, so racing readers agree).
 */
export async function getSubscription(db: Conn, userId: string, now = new Date()): Promise<Subscription> {
  // A first row continues the period the quota check already counts in (anchored on sign-up).
  const { periodStart } = await currentUsagePeriod(db, userId, now);
  await db
    .insertInto("subscriptions")
    .values({
      user_id: userId,
      plan: "FREE",
      current_period_start: periodStart,
      current_period_end: periodEndFrom(periodStart),
    })
    .onConflict((oc) => oc.column("user_id").doNothing())
    .execute();
  const row = await db.selectFrom("subscriptions").selectAll().where("user_id", "=", userId).executeTakeFirstOrThrow();
  if (row.current_period_end > now) return row;
  const step = FALLBACK_PERIOD_DAYS * DAY_MS;
  const start = new Date(
    row.current_period_end.getTime() + Math.floor((now.getTime() - row.current_period_end.getTime()) / step) * step,
  );
  const lapsed = await db
    .updateTable("subscriptions")
    .set({
      plan: "FREE",
      status: "active",
      current_period_start: start,
      current_period_end: periodEndFrom(start),
      updated_at: now,
    })
    .where("user_id", "=", userId)
    .where("plan", "=", row.plan)
    .where("current_period_end", "=", row.current_period_end)
    .returningAll()
    .executeTakeFirst();
  return lapsed ?? db.selectFrom("subscriptions").selectAll().where("user_id", "=", userId).executeTakeFirstOrThrow();
}

/** What a newly paid order for `plan` does to the user's subscription (see `applyPaidPlan`). */
export type PaidPlanEffect = "started" | "extended" | "kept_higher";

/**
 * Applies one paid period of `plan`, with the subscription row locked:
 * - no paid plan running now, or a lower one: `plan` starts now for a fresh period (`started`);
 * - the same plan running: its period is extended by one more (`extended`): a second payment,
 *   e.g. after a checkout whose confirmation was lost, is not swallowed by a restart;
 * - a higher plan running: it is kept (`kept_higher`): a late capture of an older, cheaper order
 *   never downgrades a plan paid for since.
 */
export async function applyPaidPlan(
  db: Conn,
  userId: string,
  plan: PlanId,
  now = new Date(),
): Promise<{ subscription: Subscription; effect: PaidPlanEffect }> {
  const current = await db
    .selectFrom("subscriptions")
    .selectAll()
    .where("user_id", "=", userId)
    .forUpdate()
    .executeTakeFirst();
  const running = current && current.plan !== "FREE" && current.current_period_end > now ? current : undefined;
  if (running && PLAN_RANK[running.plan] > PLAN_RANK[plan]) return { subscription: running, effect: "kept_higher" };
  if (running && running.plan === plan) {
    const subscription = await db
      .updateTable("subscriptions")
      .set({ status: "active", current_period_end: periodEndFrom(running.current_period_end), updated_at: now })
      .where("user_id", "=", userId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { subscription, effect: "extended" };
  }
  return { subscription: await activatePlan(db, userId, plan, now), effect: "started" };
}

/** Puts the user on `plan` for a fresh billing period starting `now`. */
export async function activatePlan(db: Conn, userId: string, plan: PlanId, now = new Date()): Promise<Subscription> {
  return db
    .insertInto("subscriptions")
    .values({
      user_id: userId,
      plan,
      status: "active",
      current_period_start: now,
      current_period_end: periodEndFrom(now),
    })
    .onConflict((oc) =>
      oc.column("user_id").doUpdateSet({
        plan,
        status: "active",
        current_period_start: now,
        current_period_end: periodEndFrom(now),
        updated_at: now,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Solutions counted against quota over all periods. */
export async function totalUsage(db: Conn, userId: string): Promise<number> {
  const row = await db
    .selectFrom("usage_counters")
    .select(sql<string>`coalesce(sum(used), 0)`.as("total"))
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}
