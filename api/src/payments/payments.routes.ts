import { Hono } from "hono";
import { PLAN_RANK, PLANS } from "@fixloop/contract";
import { findUserPayment, activatePaidOrder, insertPaymentOrder, recentPayments } from "@fixloop/db";
import { getSubscription } from "@fixloop/db";
import type { AppEnv } from "../deps";
import { requireUser } from "../auth/auth.middleware";
import { validate } from "../http/validate";
import { paymentErrors } from "./payments.errors";
import { CreateOrder, VerifyPayment } from "./payments.schemas";
import { validCheckoutSignature, validHmac } from "./payments.signature";
import { readUsage } from "./payments.usage";
import { paymentView, subscriptionView } from "./payments.views";
import { handleWebhook } from "./payments.webhook";
import { razorpayFor } from "./razorpay.client";

const PLAN_LIST = Object.values(PLANS);

export const paymentsRoutes = new Hono<AppEnv>()
  .get("/payments/plans", (c) => c.json({ plans: PLAN_LIST }))
  .get("/payments/config", (c) => {
    const { env } = c.var.deps;
    return c.json({
      keyId: env.RAZORPAY_KEY_ID,
      checkoutUrl: env.RAZORPAY_CHECKOUT_URL,
      enabled: env.RAZORPAY_KEY_ID !== "",
    });
  })
  .get("/payments/subscription", requireUser, async (c) => {
    const { db } = c.var.deps;
    const { subscription, used } = await readUsage(db, c.var.user.id);
    const payments = await recentPayments(db, c.var.user.id);
    return c.json({ subscription: subscriptionView(subscription, used), recentPayments: payments.map(paymentView) });
  })
  .get("/payments/usage/stats", requireUser, async (c) => {
    const { period, used, total } = await readUsage(c.var.deps.db, c.var.user.id);
    return c.json({
      totalSolutions: total,
      monthlySolutions: used,
      monthlyLimit: period.limit,
      lastResetDate: period.periodStart.toISOString(),
    });
  })
  .post("/payments/create-order", requireUser, validate("json", CreateOrder), async (c) => {
    const { db, env, logger } = c.var.deps;
    const { planId } = c.req.valid("json");
    if (planId === "FREE") throw paymentErrors.alreadyFree();
    const current = await getSubscription(db, c.var.user.id);
    if (current.plan === planId) throw paymentErrors.alreadyOnPlan(PLANS[planId].name);
    if (PLAN_RANK[current.plan] > PLAN_RANK[planId])
      throw paymentErrors.higherPlan(
        PLANS[current.plan].name,
        current.current_period_end.toISOString().slice(0, 10),
        PLANS[planId].name,
      );
    if (!env.RAZORPAY_KEY_ID || !env.RAZORPAY_KEY_SECRET) throw paymentErrors.notConfigured();
    const plan = PLANS[planId];
    const amount = Math.round(plan.price * 100);
    let order;
    try {
      order = await razorpayFor(env).createOrder({
        amount,
        currency: plan.currency,
        receipt: `fx_${Date.now().toString(36)}_${c.var.user.id.slice(0, 8)}`,
        notes: { plan: plan.id, userId: c.var.user.id, service: "fixloop" },
      });
    } catch (err) {
      logger.warn({ err, requestId: c.var.requestId }, "razorpay order creation failed");
      throw paymentErrors.orderFailed();
    }
    if (order.amount !== amount || order.currency !== plan.currency) throw paymentErrors.orderFailed();
    await insertPaymentOrder(db, {
      userId: c.var.user.id,
      orderId: order.id,
      plan: plan.id,
      amount,
      currency: plan.currency,
    });
    return c.json({
      order: { id: order.id, amount, currency: plan.currency },
      plan: plan.id,
      keyId: env.RAZORPAY_KEY_ID,
    });
  })
  .post("/payments/verify-payment", requireUser, validate("json", VerifyPayment), async (c) => {
    const { db, env } = c.var.deps;
    const body = c.req.valid("json");
    const stored = await findUserPayment(db, c.var.user.id, body.orderId);
    if (!stored) throw paymentErrors.orderNotFound();
    if (stored.plan !== body.planId) throw paymentErrors.planMismatch();
    if (!validCheckoutSignature(env.RAZORPAY_KEY_SECRET, stored.provider_order_id, body.paymentId, body.signature)) {
      throw paymentErrors.badSignature();
    }
    await activatePaidOrder(db, stored.provider_order_id, body.paymentId);
    const { subscription, used } = await readUsage(db, c.var.user.id);
    return c.json({ success: true, message: "Payment verified", subscription: subscriptionView(subscription, used) });
  })
  .post("/payments/webhook", async (c) => {
    const { db, env, logger } = c.var.deps;
    const raw = await c.req.text();
    const signature = c.req.header("x-razorpay-signature") ?? "";
    if (!validHmac(env.RAZORPAY_WEBHOOK_SECRET, raw, signature)) throw paymentErrors.badWebhookSignature();
    const outcome = await handleWebhook(db, logger, raw, c.req.header("x-razorpay-event-id"));
    return c.json({ status: outcome });
  });
