import { hmacHex, nowSeconds, razorpayId, type OrderEntity, type PaymentEntity, type RefundEntity } from "./state";

export type WebhookEventType =
  "payment.captured" | "payment.failed" | "order.paid" | "refund.processed" | "payment.dispute.lost";

/** A webhook exactly as Razorpay sends it: the raw JSON body and its headers. */
export interface WebhookDelivery {
  eventId: string;
  type: WebhookEventType;
  body: string;
  headers: Record<string, string>;
}

/** Builds a signed event; `eventId` is kept across redeliveries, as Razorpay does. */
export function buildWebhook(
  opts: { accountId: string; secret: string; eventId?: string },
  type: WebhookEventType,
  payment: PaymentEntity,
  order: OrderEntity,
  refund?: RefundEntity,
): WebhookDelivery {
  // refund.processed carries the refund first, then the payment as it is after it.
  const payload: Record<string, { entity: unknown }> = refund
    ? { refund: { entity: refund }, payment: { entity: payment } }
    : { payment: { entity: payment } };
  if (type === "order.paid") payload.order = { entity: order };
  // A chargeback the merchant lost: the whole amount is taken back from the merchant.
  if (type === "payment.dispute.lost")
    payload.dispute = {
      entity: {
        id: razorpayId("disp"),
        entity: "dispute",
        payment_id: payment.id,
        amount: payment.amount,
        currency: payment.currency,
        amount_deducted: payment.amount,
        reason_code: "chargeback",
        respond_by: nowSeconds(),
        status: "lost",
        phase: "chargeback",
        created_at: nowSeconds(),
      },
    };
  const body = JSON.stringify({
    entity: "event",
    account_id: opts.accountId,
    event: type,
    contains: Object.keys(payload),
    payload,
    created_at: nowSeconds(),
  });
  const eventId = opts.eventId ?? razorpayId("evt");
  return {
    eventId,
    type,
    body,
    headers: {
      "content-type": "application/json",
      "x-razorpay-signature": hmacHex(opts.secret, body),
      "x-razorpay-event-id": eventId,
      "user-agent": "Razorpay-Webhook/v1",
    },
  };
}

export interface DeliveryResult {
  eventId: string;
  type: WebhookEventType;
  status: number;
}

/** POSTs the delivery to `url`; a network error counts as status 0 (Razorpay would retry later). */
export async function deliverWebhook(url: string, d: WebhookDelivery): Promise<DeliveryResult> {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: d.headers,
      body: d.body,
      signal: AbortSignal.timeout(5_000),
    });
    await res.arrayBuffer();
    return { eventId: d.eventId, type: d.type, status: res.status };
  } catch {
    return { eventId: d.eventId, type: d.type, status: 0 };
  }
}
