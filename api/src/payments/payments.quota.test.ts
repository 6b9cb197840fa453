import { describe, expect, it } from "vitest";
import { domain } from "@fixloop/contract";
import { currentUsagePeriod, reserveQuota } from "@fixloop/db";
import { createPaymentsTestApp } from "../../test/payments.testkit";

const t = await createPaymentsTestApp();

async function reserve(userId: string, times: number) {
  const results = [];
  for (let i = 0; i < times; i++) {
    const period = await currentUsagePeriod(t.db, userId);
    results.push(await reserveQuota(t.db, userId, period.plan, { periodStart: period.periodStart }));
  }
  return results;
}

async function stats(headers: Record<string, string>) {
  const res = await t.client(headers).payments.usage.stats.$get();
  expect(res.status).toBe(200);
  return res.json();
}

async function payFor(headers: Record<string, string>, planId: string) {
  const order = await t.createOrder(headers, planId);
  const { response } = t.sandbox.control.pay(order.id);
  const res = await t.verify(headers, {
    orderId: order.id,
    paymentId: response.razorpay_payment_id,
    signature: response.razorpay_signature,
    planId,
  });
  expect(res.status).toBe(200);
}

const notices = async (headers: Record<string, string>) =>
  (await (await t.client(headers).notifications.$get()).json()).notifications;

describe("quota and plan changes", () => {
  it("refuses the 11th solution of a FREE month, and a PRO upgrade lifts the limit and unlocks premium models", async () => {
    const { user, headers } = await t.loginAs();
    const first = await reserve(user.id, 11);
    expect(first.slice(0, 10).every((r) => r !== null)).toBe(true);
    expect(first[10]).toBeNull();
    const free = await stats(headers);
    expect(free).toMatchObject({ totalSolutions: 10, monthlySolutions: 10, monthlyLimit: 10 });
    const period = await currentUsagePeriod(t.db, user.id);
    expect(free.lastResetDate).toBe(period.periodStart.toISOString());
    expect(domain.planAllowsProvider(period.plan, "openai")).toBe(false);

    await payFor(headers, "PRO");
    const upgraded = await currentUsagePeriod(t.db, user.id);
    expect(upgraded).toMatchObject({ plan: "PRO", limit: 100 });
    expect(domain.planAllowsProvider(upgraded.plan, "openai")).toBe(true);
    expect(domain.planAllowsProvider(upgraded.plan, "anthropic")).toBe(true);
    expect(await reserve(user.id, 1)).toEqual([expect.objectContaining({ used: 1 })]);
    expect(await stats(headers)).toMatchObject({ totalSolutions: 11, monthlySolutions: 1, monthlyLimit: 100 });
  });

  it("notifies once per period when usage reaches 80% of the limit", async () => {
    const { user, headers } = await t.loginAs();
    await reserve(user.id, 7);
    await stats(headers);
    expect((await notices(headers)).filter((n) => n.type === "usage_80")).toHaveLength(0);
    await reserve(user.id, 1);
    await stats(headers);
    await reserve(user.id, 1);
    await stats(headers);
    await t.client(headers).payments.subscription.$get();
    const warned = (await notices(headers)).filter((n) => n.type === "usage_80");
    expect(warned).toHaveLength(1);
    const counter = await t.db
      .selectFrom("usage_counters")
      .select(["used", "notified_80"])
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(counter).toEqual({ used: 9, notified_80: true });
  });

  it("marks a notification read, and answers 404 for someone else's", async () => {
    const owner = await t.loginAs();
    const other = await t.loginAs();
    await reserve(owner.user.id, 8);
    const [notice] = await notices(owner.headers);
    expect(notice?.read).toBe(false);
    const post = (headers: Record<string, string>, id: string) =>
      t.client(headers).notifications[":id"].read.$post({ param: { id } });
    expect((await post(other.headers, notice!.id)).status).toBe(404);
    expect((await post(owner.headers, notice!.id)).status).toBe(200);
    expect((await notices(owner.headers))[0]?.read).toBe(true);
    expect((await post(owner.headers, "not-a-uuid")).status).toBe(400);
  });

  it("lets a paid plan lapse to FREE once its period has ended", async () => {
    const { user, headers } = await t.loginAs();
    await payFor(headers, "PRO");
    const past = new Date(Date.now() - 86_400_000);
    await t.db
      .updateTable("subscriptions")
      .set({ current_period_start: new Date(past.getTime() - 30 * 86_400_000), current_period_end: past })
      .where("user_id", "=", user.id)
      .execute();
    const { subscription } = await t.subscription(headers);
    expect(subscription.plan).toBe("FREE");
    expect(new Date(subscription.currentPeriodEnd).getTime()).toBeGreaterThan(Date.now());
    expect((await currentUsagePeriod(t.db, user.id)).plan).toBe("FREE");
  });
});
