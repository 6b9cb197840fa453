import type { Kysely, Transaction } from "kysely";
import type { Database, Payment, Subscription } from "../schema";
import { type PlanId, PLANS } from "@fixloop/contract";
import { webhookPayload } from "./json-columns";
import { activatePlan } from "./subscriptions.repository";

type Conn = Kysely<Database> | Transaction<Database>;

export async function insertPaymentOrder(
  db: Conn,
  p: { userId: string; orderId: string; plan: PlanId; amount: number; currency: string },
): Promise<Payment> {
  return db
    .insertInto("payments")
    .values({ user_id: p.userId, provider_order_id: p.orderId, plan: p.plan, amount: p.amount, currency: p.currency })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The order if it belongs to `userId`; another user's order reads as absent. */
export async function findUserPayment(db: Conn, userId: string, orderId: string): Promise<Payment | undefined> {
  return db
    .selectFrom("payments")
    .selectAll()
    .where("provider_order_id", "=", orderId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
}

export async function findPaymentByOrder(db: Conn, orderId: string): Promise<Payment | undefined> {
  return db.selectFrom("payments").selectAll().where("provider_order_id", "=", orderId).executeTakeFirst();
}

export async function recentPayments(db: Conn, userId: string, limit = 10): Promise<Payment[]> {
  return db
    .selectFrom("payments")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .limit(limit)
    .execute();
}

export interface Activation {
  payment: Payment;
  /** True only for the one call that moved the order to paid and changed the plan. */
  activated: boolean;
  subscription?: Subscription;
}

/**
 * Marks the stored order paid and activates its plan, exactly once: the conditional update on
 * `activated_at is null` lets one caller win even when the browser's verify and webhooks race.
 */
export async function activatePaidOrder(
  db: Conn,
  orderId: string,
  paymentId: string,
  now = new Date(),
): Promise<Activation | undefined> {
  const run = async (trx: Conn): Promise<Activation | undefined> => {
    const won = await trx
      .updateTable("payments")
      .set({ status: "paid", provider_payment_id: paymentId, activated_at: now, failure_reason: null, updated_at: now })
      .where("provider_order_id", "=", orderId)
      .where("activated_at", "is", null)
      .returningAll()
      .executeTakeFirst();
    if (!won) {
      const payment = await findPaymentByOrder(trx, orderId);
      return payment && { payment, activated: false };
    }
    const subscription = await activatePlan(trx, won.user_id, won.plan, now);
    await trx
      .insertInto("notifications")
      .values({
        user_id: won.user_id,
        kind: "plan_activated",
        message: `Your ${PLANS[won.plan].name} plan is active until ${subscription.current_period_end.toISOString().slice(0, 10)}.`,
        link: "/profile-settings",
      })
      .execute();
    return { payment: won, activated: true, subscription };
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

export interface Refund {
  payment: Payment;
  /** True when the refunded order had bought the plan the user is on: the user is on FREE from now. */
  planEnded: boolean;
}

/**
 * Marks a paid order refunded (given back in full: a refund or a dispute lost), once, and ends the
 * plan it bought when that plan is still the user's current one (activated by this very order);
 * the user is told. Undefined when the order is not paid (unknown, never paid, refunded already).
 */
export async function refundPaidOrder(db: Conn, orderId: string, now = new Date()): Promise<Refund | undefined> {
  const run = async (trx: Conn): Promise<Refund | undefined> => {
    const payment = await trx
      .updateTable("payments")
      .set({ status: "refunded", updated_at: now })
      .where("provider_order_id", "=", orderId)
      .where("status", "=", "paid")
      .returningAll()
      .executeTakeFirst();
    if (!payment) return undefined;
    const current = await trx
      .selectFrom("subscriptions")
      .select(["plan", "current_period_start"])
      .where("user_id", "=", payment.user_id)
      .forUpdate()
      .executeTakeFirst();
    // activatePaidOrder starts the plan's period at the order's activation: that is how the
    // subscription says which order bought it. A later order's plan is left alone.
    const planEnded =
      !!current &&
      !!payment.activated_at &&
      current.plan === payment.plan &&
      current.current_period_start.getTime() === payment.activated_at.getTime();
    if (planEnded) await activatePlan(trx, payment.user_id, "FREE", now);
    await trx
      .insertInto("notifications")
      .values({
        user_id: payment.user_id,
        kind: "payment_refunded",
        message: planEnded
          ? `Your ${PLANS[payment.plan].name} payment was refunded; you are on the Free plan from now.`
          : `Your ${PLANS[payment.plan].name} payment was refunded.`,
        link: "/profile-settings",
      })
      .execute();
    return { payment, planEnded };
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/** Records a failed attempt unless the order was already paid (failures may arrive late). */
export async function markOrderFailed(db: Conn, orderId: string, reason: string): Promise<boolean> {
  const r = await db
    .updateTable("payments")
    .set({ status: "failed", failure_reason: reason.slice(0, 500), updated_at: new Date() })
    .where("provider_order_id", "=", orderId)
    .where("activated_at", "is", null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Stores a webhook event id; false when it was already stored (a redelivery). */
export async function recordWebhookEvent(
  db: Conn,
  e: { eventId: string; provider: string; type: string; payload: object },
): Promise<boolean> {
  const row = await db
    .insertInto("webhook_events")
    .values({ event_id: e.eventId, provider: e.provider, type: e.type, payload: webhookPayload.write(e.payload) })
    .onConflict((oc) => oc.column("event_id").doNothing())
    .returning("event_id")
    .executeTakeFirst();
  return row !== undefined;
}

export async function markWebhookProcessed(db: Conn, eventId: string): Promise<void> {
  await db.updateTable("webhook_events").set({ processed_at: new Date() }).where("event_id", "=", eventId).execute();
}

/** Forgets a delivery whose handling failed before it was processed, so a redelivery is handled afresh. */
export async function forgetWebhookEvent(db: Conn, eventId: string): Promise<void> {
  await db.deleteFrom("webhook_events").where("event_id", "=", eventId).where("processed_at", "is", null).execute();
}
