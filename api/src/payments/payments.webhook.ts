import crypto from "node:crypto";
import type { Db } from "@fixloop/db";
import {
  activatePaidOrder,
  findPaymentByOrder,
  markOrderFailed,
  markWebhookProcessed,
  recordWebhookEvent,
  refundPaidOrder,
} from "@fixloop/db";
import type { Logger } from "@fixloop/runtime";
import { WebhookEvent } from "./payments.schemas";

export type WebhookOutcome = "duplicate" | "activated" | "already_active" | "failed_recorded" | "refunded" | "ignored";

/** Events that give a captured payment back to the payer: a refund, or a dispute the merchant lost. */
const GIVEN_BACK = new Set(["refund.processed", "payment.dispute.lost"]);

/**
 * Applies one verified Razorpay event. The event id is stored in the same transaction as its
 * effect, so a redelivery is a no-op and a crash leaves nothing half done. Captured payments go
 * through the same exactly-once activation as the browser's verify call, in either order. A
 * payment given back in full (refund.processed, payment.dispute.lost) marks its order refunded
 * and ends the plan it bought.
 */
export async function handleWebhook(
  db: Db,
  logger: Logger,
  rawBody: string,
  eventIdHeader: string | undefined,
): Promise<WebhookOutcome> {
  const parsed = WebhookEvent.safeParse(JSON.parse(rawBody));
  if (!parsed.success) return "ignored";
  const event = parsed.data;
  const eventId = eventIdHeader || `sha256:${crypto.createHash("sha256").update(rawBody).digest("hex")}`;
  return db.transaction().execute(async (trx) => {
    const fresh = await recordWebhookEvent(trx, { eventId, provider: "razorpay", type: event.event, payload: event });
    if (!fresh) return "duplicate";
    let outcome: WebhookOutcome = "ignored";
    const payment = event.payload.payment?.entity;
    const orderId = payment?.order_id ?? event.payload.order?.entity.id;
    const ours = orderId ? await findPaymentByOrder(trx, orderId) : undefined;
    if (ours && payment) {
      const matches = payment.amount === ours.amount && payment.currency === ours.currency;
      if ((event.event === "payment.captured" || event.event === "order.paid") && matches) {
        const r = await activatePaidOrder(trx, ours.provider_order_id, payment.id);
        outcome = r?.activated ? "activated" : "already_active";
      } else if (GIVEN_BACK.has(event.event) && payment.currency === ours.currency) {
        // Only a payment given back in full ends the plan it bought; a partial refund is the operator's goodwill.
        const full =
          event.event === "payment.dispute.lost" ||
          payment.refund_status === "full" ||
          (payment.amount_refunded ?? 0) >= ours.amount;
        if (full) outcome = (await refundPaidOrder(trx, ours.provider_order_id)) ? "refunded" : "ignored";
        else logger.info({ eventId, orderId }, "partial refund: the plan stays");
      } else if (event.event === "payment.failed") {
        outcome = (await markOrderFailed(trx, ours.provider_order_id, payment.error_description ?? "Payment failed"))
          ? "failed_recorded"
          : "ignored";
      } else if (!matches) {
        logger.warn({ eventId, orderId }, "webhook amount or currency differs from the stored order");
      }
    }
    await markWebhookProcessed(trx, eventId);
    return outcome;
  });
}
