import type { Kysely, Transaction } from "kysely";
import type { Database, Payment, Subscription } from "../schema";
import { type PlanId, PLANS } from "@fixloop/contract";
import { webhookPayload } from "./json-columns";
import { activatePlan, applyPaidPlan, periodBefore } from "./subscriptions.repository";
import { inTransaction } from "./conn";

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
  /**
   * True only for the one call that moved the order to paid and applied it (`applyPaidPlan`: the
   * plan started or extended, or left as it was under a higher plan running).
   */
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
    const { subscription, effect } = await applyPaidPlan(trx, won.user_id, won.plan, now);
    const until = subscription.current_period_end.toISOString().slice(0, 10);
    const name = PLANS[won.plan].name;
    await trx
      .insertInto("notifications")
      .values({
        user_id: won.user_id,
        kind: effect === "kept_higher" ? "payment_not_applied" : "plan_activated",
        message:
          effect === "kept_higher"
            ? `Your ${name} payment arrived while your ${PLANS[subscription.plan].name} plan is active until ${until}; it was not applied. Contact support for a refund.`
            : effect === "extended"
              ? `Your ${name} plan is extended until ${until}.`
              : `Your ${name} plan is active until ${until}.`,
        link: "/profile-settings",
      })
      .execute();
    return { payment: won, activated: true, subscription };
  };
  return inTransaction(db, run);
}

export interface Refund {
  payment: Payment;
  /** The plan the refunded order paid for is over: the user is on FREE from now. */
  planEnded: boolean;
}

/**
 * Marks a paid order refunded (given back in full: a refund or a dispute lost), once, and takes
 * back the period it paid for when it went into the plan the user is on now (it started that plan
 * or extended it, see `applyPaidPlan`): the period ends one period sooner, and when that is
 * already past the user is on FREE from now. An older order, or one a higher plan kept from
 * applying, changes no plan. The user is told. Undefined when the order is not paid (unknown,
 * never paid, refunded already).
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
      .selectAll()
      .where("user_id", "=", payment.user_id)
      .forUpdate()
      .executeTakeFirst();
    const applied =
      !!current &&
      !!payment.activated_at &&
      current.plan === payment.plan &&
      current.current_period_end > now &&
      payment.activated_at >= current.current_period_start;
    const end = current && applied ? periodBefore(current.current_period_end) : null;
    const planEnded = !!end && end <= now;
    if (planEnded) await activatePlan(trx, payment.user_id, "FREE", now);
    else if (end)
      await trx
        .updateTable("subscriptions")
        .set({ current_period_end: end, updated_at: now })
        .where("user_id", "=", payment.user_id)
        .execute();
    const name = PLANS[payment.plan].name;
    await trx
      .insertInto("notifications")
      .values({
        user_id: payment.user_id,
        kind: "payment_refunded",
        message: planEnded
          ? `Your ${name} payment was refunded; you are on the Free plan from now.`
          : end
            ? `Your ${name} payment was refunded; your ${name} plan now ends on ${end.toISOString().slice(0, 10)}.`
            : `Your ${name} payment was refunded.`,
        link: "/profile-settings",
      })
      .execute();
    return { payment, planEnded };
  };
  return inTransaction(db, run);
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
