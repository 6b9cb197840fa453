import { beforeAll, describe, expect, it } from "vitest";
import { activatePlan } from "@fixloop/db";
import { z } from "zod";
import { createPaymentsTestApp } from "../../test/payments.testkit";
import { errorOf } from "../../test/testing";

const t = await createPaymentsTestApp();
/** The order a create-order answer carries, read and checked. */
const PaymentOrder = z.object({ order: z.object({ id: z.string(), amount: z.number(), currency: z.string() }) });

describe("plans and orders", () => {
  it("lists the three plans without signing in", async () => {
    const res = await t.client().payments.plans.$get();
    expect(res.status).toBe(200);
    const { plans } = await res.json();
    expect(plans.map((p) => [p.id, p.price, p.monthlyLimit])).toEqual([
      ["FREE", 0, 10],
      ["PRO", 15, 100],
      ["ENTERPRISE", 50, -1],
    ]);
    expect(plans[1]?.aiModels).toEqual(expect.arrayContaining(["groq", "openai", "anthropic"]));
  });

  it("hands the browser the key id and the checkout script URL", async () => {
    const body = await (await t.client().payments.config.$get()).json();
    expect(body).toMatchObject({ keyId: t.sandbox.keyId, checkoutUrl: `${t.sandbox.url}/v1/checkout.js` });
    const script = await fetch(body.checkoutUrl);
    expect(await script.text()).toContain("window.Razorpay = Razorpay");
  });

  it("refuses an order for the Free plan, for the plan the user already has and for a lower one", async () => {
    const { headers, user } = await t.loginAs();
    const payments = t.client(headers).payments;
    const free = await payments["create-order"].$post({ json: { planId: "FREE" } });
    expect(free.status).toBe(400);
    expect(await free.json()).toEqual({
      error: { code: "payments.already_on_plan", message: "You are already on the Free plan" },
    });
    await activatePlan(t.db, user.id, "PRO");
    const same = await payments["create-order"].$post({ json: { planId: "PRO" } });
    expect((await errorOf(same)).message).toBe("You are already on the Pro plan");
    // A lower plan than the one running would not apply (a late payment never downgrades): refused too.
    const enterprise = await activatePlan(t.db, user.id, "ENTERPRISE");
    const lower = await payments["create-order"].$post({ json: { planId: "PRO" } });
    expect(lower.status).toBe(400);
    expect(await lower.json()).toEqual({
      error: {
        code: "payments.higher_plan_active",
        message: `You are on the Enterprise plan until ${enterprise.current_period_end.toISOString().slice(0, 10)}; a Pro payment would not apply before then`,
      },
    });
    expect(await t.db.selectFrom("payments").select("id").where("user_id", "=", user.id).execute()).toHaveLength(0);
  });

  it("creates the order at the server's price with the plan and user in its notes, ignoring client amounts", async () => {
    const { headers, user } = await t.loginAs();
    // Sent raw: the typed client would not let a test send the fields the route ignores.
    const res = await t.app.request(
      "/api/payments/create-order",
      t.json(headers, { planId: "PRO", amount: 1, currency: "INR" }),
    );
    expect(res.status).toBe(200);
    const { order } = PaymentOrder.parse(await res.json());
    expect(order).toMatchObject({ amount: 1500, currency: "USD" });
    const remote = t.sandbox.control.state.orders.get(order.id);
    expect(remote).toMatchObject({
      amount: 1500,
      currency: "USD",
      notes: { plan: "PRO", userId: user.id, service: "fixloop" },
    });
    const stored = await t.db
      .selectFrom("payments")
      .selectAll()
      .where("provider_order_id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({
      user_id: user.id,
      plan: "PRO",
      amount: 1500,
      currency: "USD",
      status: "created",
      activated_at: null,
    });
  });

  it("answers 401 to an anonymous order and 400 to an unknown plan", async () => {
    const anon = await t.app.request("/api/payments/create-order", t.json({}, { planId: "PRO" }));
    expect(anon.status).toBe(401);
    const { headers } = await t.loginAs();
    const bad = await t.app.request("/api/payments/create-order", t.json(headers, { planId: "GOLD" }));
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).code).toBe("request.invalid");
  });
});

describe("verifying a checkout payment", () => {
  let alice: Awaited<ReturnType<typeof t.loginAs>>;
  beforeAll(async () => {
    alice = await t.loginAs();
  });

  it("rejects a tampered signature and activates nothing", async () => {
    const order = await t.createOrder(alice.headers);
    const { response } = t.sandbox.control.pay(order.id);
    const tampered = response.razorpay_signature.replace(/^./, (ch) => (ch === "a" ? "b" : "a"));
    const res = await t.verify(alice.headers, {
      orderId: order.id,
      paymentId: response.razorpay_payment_id,
      signature: tampered,
      planId: "PRO",
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe("Payment verification failed");
    expect((await t.subscription(alice.headers)).subscription.plan).toBe("FREE");
    expect(await t.activations(alice.user.id)).toBe(0);
  });

  it("rejects a signature made for another order", async () => {
    const a = await t.createOrder(alice.headers);
    const b = await t.createOrder(alice.headers);
    const paidB = t.sandbox.control.pay(b.id).response;
    const res = await t.verify(alice.headers, {
      orderId: a.id,
      paymentId: paidB.razorpay_payment_id,
      signature: paidB.razorpay_signature,
      planId: "PRO",
    });
    expect(res.status).toBe(400);
    const unknown = await t.verify(alice.headers, {
      orderId: "order_doesnotexist01",
      paymentId: paidB.razorpay_payment_id,
      signature: paidB.razorpay_signature,
      planId: "PRO",
    });
    expect(unknown.status).toBe(404);
    expect((await t.subscription(alice.headers)).subscription.plan).toBe("FREE");
  });

  it("answers 404 for another user's order, even with its valid signature", async () => {
    const bob = await t.loginAs();
    const order = await t.createOrder(bob.headers);
    const { response } = t.sandbox.control.pay(order.id);
    const res = await t.verify(alice.headers, {
      orderId: order.id,
      paymentId: response.razorpay_payment_id,
      signature: response.razorpay_signature,
      planId: "PRO",
    });
    expect(res.status).toBe(404);
    expect((await t.subscription(alice.headers)).subscription.plan).toBe("FREE");
    expect((await t.subscription(bob.headers)).subscription.plan).toBe("FREE");
    expect(await t.activations(bob.user.id)).toBe(0);
  });

  it("refuses a client plan that differs from the stored order", async () => {
    const order = await t.createOrder(alice.headers, "PRO");
    const { response } = t.sandbox.control.pay(order.id);
    const res = await t.verify(alice.headers, {
      orderId: order.id,
      paymentId: response.razorpay_payment_id,
      signature: response.razorpay_signature,
      planId: "ENTERPRISE",
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe("payments.plan_mismatch");
    expect((await t.subscription(alice.headers)).subscription.plan).toBe("FREE");
  });

  it("activates the plan once when the same verification is sent twice", async () => {
    const carol = await t.loginAs();
    const order = await t.createOrder(carol.headers);
    const { response } = t.sandbox.control.pay(order.id);
    const body = {
      orderId: order.id,
      paymentId: response.razorpay_payment_id,
      signature: response.razorpay_signature,
      planId: "PRO",
    };
    const first = await t.verify(carol.headers, body);
    expect(first.status).toBe(200);
    const firstBody = await first.json();
    const second = await t.verify(carol.headers, body);
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual(firstBody);
    const { subscription, recentPayments } = await t.subscription(carol.headers);
    expect(subscription.plan).toBe("PRO");
    expect(
      new Date(subscription.currentPeriodEnd).getTime() - new Date(subscription.currentPeriodStart).getTime(),
    ).toBe(30 * 86_400_000);
    expect(recentPayments[0]).toMatchObject({ orderId: order.id, status: "paid", plan: "PRO" });
    expect(await t.activations(carol.user.id)).toBe(1);
  });

  it("activates once when the verify call and the webhooks race", async () => {
    const dave = await t.loginAs();
    const order = await t.createOrder(dave.headers);
    const { response, webhooks } = t.sandbox.control.pay(order.id);
    const body = {
      orderId: order.id,
      paymentId: response.razorpay_payment_id,
      signature: response.razorpay_signature,
      planId: "PRO",
    };
    const results = await Promise.all([
      t.verify(dave.headers, body),
      ...webhooks.map((w) => t.postWebhook(w)),
      t.verify(dave.headers, body),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(await t.activations(dave.user.id)).toBe(1);
  });
});
