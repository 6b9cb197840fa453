import type { Kysely, Transaction } from "kysely";
import type { Database } from "../schema";
import { type PlanId, PLANS, USAGE_NOTIFY_RATIO } from "@fixloop/contract";

type Conn = Kysely<Database> | Transaction<Database>;

export async function listNotifications(db: Conn, userId: string, limit = 50) {
  return db
    .selectFrom("notifications")
    .select(["id", "kind", "message", "link", "read_at", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .limit(limit)
    .execute();
}

/** False when the notification does not exist or belongs to someone else. */
export async function markNotificationRead(db: Conn, userId: string, id: string): Promise<boolean> {
  const r = await db
    .updateTable("notifications")
    .set((eb) => ({ read_at: eb.fn.coalesce("read_at", eb.val(new Date())) }))
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The used count at which a plan's period warns (80% of the limit), or null for unlimited plans. */
export function usageNotifyThreshold(plan: PlanId): number | null {
  const limit = PLANS[plan].monthlyLimit;
  return limit < 0 ? null : Math.ceil(limit * USAGE_NOTIFY_RATIO);
}

/**
 * Sends the "80% of your quota" notification once per billing period: flipping
 * usage_counters.notified_80 is the claim, so concurrent callers send at most one.
 */
export async function notifyUsageThreshold(
  db: Kysely<Database>,
  userId: string,
  u: { plan: PlanId; periodStart: Date; used: number },
): Promise<boolean> {
  const threshold = usageNotifyThreshold(u.plan);
  if (threshold === null || u.used < threshold) return false;
  const limit = PLANS[u.plan].monthlyLimit;
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .updateTable("usage_counters")
      .set({ notified_80: true })
      .where("user_id", "=", userId)
      .where("period_start", "=", u.periodStart)
      .where("notified_80", "=", false)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    await trx
      .insertInto("notifications")
      .values({
        user_id: userId,
        kind: "usage_80",
        message: `You have used ${u.used} of your ${limit} AI solutions this month (${Math.round((u.used / limit) * 100)}%). Upgrade to keep solving.`,
        link: "/pricing",
      })
      .execute();
    return true;
  });
}
