import type { Db } from "@fixloop/db";
import { getSubscription, totalUsage } from "@fixloop/db";
import { currentUsagePeriod, usedInPeriod } from "@fixloop/db";
import { notifyUsageThreshold } from "@fixloop/db";

/** The caller's subscription and this period's usage, read the same way the quota check counts it. */
export async function readUsage(db: Db, userId: string) {
  const subscription = await getSubscription(db, userId);
  const period = await currentUsagePeriod(db, userId);
  const [used, total] = await Promise.all([usedInPeriod(db, userId, period.periodStart), totalUsage(db, userId)]);
  await notifyUsageThreshold(db, userId, { plan: period.plan, periodStart: period.periodStart, used });
  return { subscription, period, used, total };
}

/**
 * Sends the 80% notice if this period's usage has reached it. Quota is taken in the solve path;
 * reads of usage and notifications call this so the notice appears however the count grew.
 */
export async function catchUpUsageNotice(db: Db, userId: string): Promise<void> {
  // Also lets a lapsed paid plan fall back to FREE while the app is open (the bell polls this).
  await getSubscription(db, userId);
  const period = await currentUsagePeriod(db, userId);
  const used = await usedInPeriod(db, userId, period.periodStart);
  await notifyUsageThreshold(db, userId, { plan: period.plan, periodStart: period.periodStart, used });
}
