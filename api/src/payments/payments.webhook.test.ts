import { describe, expect, it } from "vitest";
import { createPaymentsTestApp } from "../../test/payments.testkit";

const t = await createPaymentsTestApp();

/** The user's notifications of one kind, as `{ message }` rows. */
const messagesOf = (userId: string, kind: string) =>
  t.db.selectFrom("notifications").select("message").where("user_id", "=", userId).where("kind", "=", kind).execute();

async function paidOrder() {
  const who = await t.loginAs();
  const order = await t.createOrder(who.headers);
  const paid = t.sandbox.control.pay(order.id);
  return { ...who, order, ...paid };
}

describe("Razorpay webhooks", () => {
  it("activates once when the same event is delivered three times", async () => {
    const { user, headers, payment } = await paidOrder();
    const captured = t.sandbox.control.webhook("payment.captured", payment.id);
    const again = t.sandbox.control.webhook("payment.captured", payment.id, captured.eventId);
    const statuses = [];
    for (const d of [captured, again, again]) {
      const res = await t.postWebhook(d);
      statuses.push(((await res.json()) as { status: string }).status);
    }
    expect(statuses).toEqual(["activated", "duplicate", "duplicate"]);
    expect((await t.subscription(headers)).subscription.plan).toBe("PRO");
    expect(await t.activations(user.id)).toBe(1);
    const stored = await t.db
      .selectFrom("webhook_events")
      .select(["event_id", "processed_at"])
      .where("event_id", "=", captured.eventId)
      .execute();
    expect(stored).toHaveLength(1);
    expect(stored[0]?.processed_at).toBeInstanceOf(Date);
  });

  it("activates from the webhook when it arrives before verify, and verify then answers the same plan", async () => {
    const { user, headers, order, response, webhooks } = await paidOrder();
    for (const w of webhooks) expect((await t.postWebhook(w)).status).toBe(200);
    expect((await t.subscription(headers)).subscription.plan).toBe("PRO");
    const res = await t.verify(headers, {
      orderId: order.id,
      paymentId: response.razorpay_payment_id,
      signature: response.razorpay_signature,
      planId: "PRO",
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { subscription: { plan: string } }).subscription.plan).toBe("PRO");
    expect(await t.activations(user.id)).toBe(1);
  });

  it("refuses a body whose signature does not match and stores nothing", async () => {
    const { headers, payment } = await paidOrder();
    const d = t.sandbox.control.webhook("payment.captured", payment.id);
    const forged = { ...d, body: d.body.replace('"status":"captured"', '"status":"captured" ') };
    const res = await t.postWebhook(forged);
    expect(res.status).toBe(400);
    const unsigned = await t.postWebhook({
      body: d.body,
      headers: { "content-type": "application/json", "x-razorpay-event-id": d.eventId },
    });
    expect(unsigned.status).toBe(400);
    expect((await t.subscription(headers)).subscription.plan).toBe("FREE");
    expect(
      await t.db.selectFrom("webhook_events").select("event_id").where("event_id", "=", d.eventId).execute(),
    ).toHaveLength(0);
  });

  it("records a failed attempt, and a later captured payment on the same order still activates", async () => {
    const who = await t.loginAs();
    const order = await t.createOrder(who.headers);
    const failed = t.sandbox.control.pay(order.id, "failure");
    expect((await (await t.postWebhook(failed.webhooks[0]!)).json()) as object).toEqual({ status: "failed_recorded" });
    const row = await t.db
      .selectFrom("payments")
      .select(["status", "failure_reason"])
      .where("provider_order_id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "failed", failure_reason: "Payment failed" });
    const ok = t.sandbox.control.pay(order.id);
    for (const w of ok.webhooks) await t.postWebhook(w);
    expect((await t.subscription(who.headers)).subscription.plan).toBe("PRO");
    expect(await t.activations(who.user.id)).toBe(1);
  });

  it("keeps a paid order paid when a failure event for an earlier attempt arrives late", async () => {
    const who = await t.loginAs();
    const order = await t.createOrder(who.headers);
    const failed = t.sandbox.control.pay(order.id, "failure");
    const ok = t.sandbox.control.pay(order.id);
    for (const w of ok.webhooks) await t.postWebhook(w);
    await t.postWebhook(failed.webhooks[0]!);
    const row = await t.db
      .selectFrom("payments")
      .select(["status", "provider_payment_id"])
      .where("provider_order_id", "=", order.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "paid", provider_payment_id: ok.payment.id });
    expect((await t.subscription(who.headers)).subscription.plan).toBe("PRO");
  });

  it("ends the plan a payment bought when it is refunded in full, once, and tells the user", async () => {
    const { user, headers, payment, webhooks } = await paidOrder();
    for (const w of webhooks) await t.postWebhook(w);
    expect((await t.subscription(headers)).subscription.plan).toBe("PRO");
    // A partial refund (goodwill) leaves the plan as it is.
    const partial = await t.postWebhook(t.sandbox.control.refund(payment.id, 500));
    expect(await partial.json()).toEqual({ status: "ignored" });
    expect((await t.subscription(headers)).subscription.plan).toBe("PRO");
    // The rest is refunded: the 7-day money-back guarantee.
    const full = t.sandbox.control.refund(payment.id);
    expect(await (await t.postWebhook(full)).json()).toEqual({ status: "refunded" });
    expect((await t.subscription(headers)).subscription.plan).toBe("FREE");
    const row = await t.db
      .selectFrom("payments")
      .select("status")
      .where("provider_payment_id", "=", payment.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("refunded");
    const told = await messagesOf(user.id, "payment_refunded");
    expect(told).toEqual([{ message: "Your Pro payment was refunded; you are on the Free plan from now." }]);
    // Redelivered, it changes nothing more.
    expect(await (await t.postWebhook(full)).json()).toEqual({ status: "duplicate" });
  });

  it("ends the plan when the payment's dispute is lost (a chargeback)", async () => {
    const { headers, payment, webhooks } = await paidOrder();
    for (const w of webhooks) await t.postWebhook(w);
    const lost = t.sandbox.control.webhook("payment.dispute.lost", payment.id);
    expect(await (await t.postWebhook(lost)).json()).toEqual({ status: "refunded" });
    expect((await t.subscription(headers)).subscription.plan).toBe("FREE");
  });

  it("keeps a later order's plan when an earlier order is refunded", async () => {
    const { user, headers, payment, webhooks } = await paidOrder();
    for (const w of webhooks) await t.postWebhook(w);
    // Then ENTERPRISE, paid and activated; the PRO payment is refunded afterwards.
    const upgrade = await t.createOrder(headers, "ENTERPRISE");
    for (const w of t.sandbox.control.pay(upgrade.id).webhooks) await t.postWebhook(w);
    expect((await t.subscription(headers)).subscription.plan).toBe("ENTERPRISE");
    expect(await (await t.postWebhook(t.sandbox.control.refund(payment.id))).json()).toEqual({ status: "refunded" });
    expect((await t.subscription(headers)).subscription.plan).toBe("ENTERPRISE");
    const told = await messagesOf(user.id, "payment_refunded");
    expect(told).toEqual([{ message: "Your Pro payment was refunded." }]);
  });

  it("extends the plan by a period when a second payment for it lands, and a refund of it takes that period back", async () => {
    // The first checkout's confirmation is lost (no verify, its webhooks late): the user pays again.
    const { user, headers, order, payment: first, webhooks: late } = await paidOrder();
    const again = await t.createOrder(headers);
    expect(again.id).not.toBe(order.id);
    const second = t.sandbox.control.pay(again.id);
    for (const w of second.webhooks) await t.postWebhook(w);
    const once = (await t.subscription(headers)).subscription;
    expect(once.plan).toBe("PRO");
    for (const w of late) await t.postWebhook(w);
    const twice = (await t.subscription(headers)).subscription;
    expect(twice.plan).toBe("PRO");
    expect(twice.currentPeriodStart).toBe(once.currentPeriodStart);
    expect(Date.parse(twice.currentPeriodEnd) - Date.parse(once.currentPeriodEnd)).toBe(30 * 86_400_000);
    expect(await t.activations(user.id)).toBe(2);
    // The later-applied payment (the first order) is refunded: its period goes, the plan stays.
    const refund = t.sandbox.control.refund(first.id);
    expect(await (await t.postWebhook(refund)).json()).toEqual({ status: "refunded" });
    const after = (await t.subscription(headers)).subscription;
    expect(after).toMatchObject({ plan: "PRO", currentPeriodEnd: once.currentPeriodEnd });
  });

  it("keeps a higher plan when an older, cheaper order's capture arrives late, and says the payment was not applied", async () => {
    const { user, headers, webhooks: late } = await paidOrder();
    const upgrade = await t.createOrder(headers, "ENTERPRISE");
    for (const w of t.sandbox.control.pay(upgrade.id).webhooks) await t.postWebhook(w);
    const enterprise = (await t.subscription(headers)).subscription;
    expect(enterprise.plan).toBe("ENTERPRISE");
    for (const w of late) await t.postWebhook(w);
    expect((await t.subscription(headers)).subscription).toMatchObject({
      plan: "ENTERPRISE",
      currentPeriodStart: enterprise.currentPeriodStart,
      currentPeriodEnd: enterprise.currentPeriodEnd,
    });
    const told = await messagesOf(user.id, "payment_not_applied");
    expect(told).toEqual([
      {
        message: `Your Pro payment arrived while your Enterprise plan is active until ${enterprise.currentPeriodEnd.slice(0, 10)}; it was not applied. Contact support for a refund.`,
      },
    ]);
  });

  it("acknowledges events for orders it does not know without changing anything", async () => {
    const before = await t.db.selectFrom("subscriptions").selectAll().execute();
    // An order made on the same account by something other than Fixloop.
    const res = await fetch(`${t.sandbox.url}/v1/orders`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${t.sandbox.keyId}:${t.sandbox.keySecret}`).toString("base64")}`,
        "content-type": "application/json",
      },
      body: JSON.stringify({ amount: 1500, currency: "USD" }),
    });
    const order = (await res.json()) as { id: string };
    const { payment } = t.sandbox.control.pay(order.id);
    const answer = await t.postWebhook(t.sandbox.control.webhook("payment.captured", payment.id));
    expect(await answer.json()).toEqual({ status: "ignored" });
    expect(await t.db.selectFrom("subscriptions").selectAll().execute()).toEqual(before);
  });

  it("is delivered by the stand-in itself after a checkout payment", async () => {
    const who = await t.loginAs();
    const order = await t.createOrder(who.headers);
    const received: string[] = [];
    const { serve } = await import("@hono/node-server");
    const server = serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: async (req) => {
        const body = await req.text();
        received.push(req.headers.get("x-razorpay-event-id") ?? "");
        return t.app.request("/api/payments/webhook", { method: "POST", headers: req.headers, body });
      },
    });
    await new Promise((r) => server.once("listening", r));
    const port = (server.address() as { port: number }).port;
    t.sandbox.control.webhookUrl = `http://127.0.0.1:${port}/`;
    try {
      const res = await fetch(`${t.sandbox.url}/v1/checkout/pay`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ key_id: t.sandbox.keyId, order_id: order.id, outcome: "success" }),
      });
      expect(Object.keys(await res.json())).toEqual(["razorpay_payment_id", "razorpay_order_id", "razorpay_signature"]);
      await t.sandbox.control.settled();
    } finally {
      t.sandbox.control.webhookUrl = undefined;
      server.close();
    }
    expect(received).toHaveLength(2);
    expect(t.sandbox.control.deliveries.slice(-2).map((d) => [d.type, d.status])).toEqual([
      ["payment.captured", 200],
      ["order.paid", 200],
    ]);
    expect((await t.subscription(who.headers)).subscription.plan).toBe("PRO");
    expect(await t.activations(who.user.id)).toBe(1);
  });
});
