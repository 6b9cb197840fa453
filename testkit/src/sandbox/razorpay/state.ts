import crypto from "node:crypto";

type Notes = Record<string, string>;

/** Razorpay's order entity, as GET /v1/orders/:id returns it. */
export interface OrderEntity {
  id: string;
  entity: "order";
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: string;
  receipt: string | null;
  offer_id: null;
  status: "created" | "attempted" | "paid";
  attempts: number;
  /** Razorpay serialises empty notes as `[]`. */
  notes: Notes | [];
  created_at: number;
}

/** Razorpay's payment entity, as GET /v1/payments/:id returns it. */
export interface PaymentEntity {
  id: string;
  entity: "payment";
  amount: number;
  currency: string;
  status: "captured" | "failed" | "refunded";
  order_id: string;
  invoice_id: null;
  international: boolean;
  method: "card";
  amount_refunded: number;
  refund_status: "partial" | "full" | null;
  captured: boolean;
  description: string | null;
  card_id: null;
  bank: null;
  wallet: null;
  vpa: null;
  email: string;
  contact: string;
  notes: Notes | [];
  fee: number | null;
  tax: number | null;
  error_code: string | null;
  error_description: string | null;
  error_source: string | null;
  error_step: string | null;
  error_reason: string | null;
  acquirer_data: Record<string, string>;
  created_at: number;
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** Razorpay ids are a prefix and 14 base62 characters, e.g. `order_IluGWxBm9U8zJ8`. */
export function razorpayId(prefix: string, length = 14): string {
  const bytes = crypto.randomBytes(length);
  return `${prefix}_${Array.from(bytes, (b) => ALNUM[b % ALNUM.length]).join("")}`;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

export const hmacHex = (secret: string, text: string) => crypto.createHmac("sha256", secret).update(text).digest("hex");

/** Razorpay's refund entity, as a refund.processed event carries it. */
export interface RefundEntity {
  id: string;
  entity: "refund";
  amount: number;
  currency: string;
  payment_id: string;
  notes: [];
  receipt: null;
  acquirer_data: { arn: string | null };
  created_at: number;
  batch_id: null;
  status: "processed";
  speed_processed: "normal";
  speed_requested: "normal";
}

/** In-memory orders and payments of one stand-in instance. */
export class RazorpayState {
  readonly orders = new Map<string, OrderEntity>();
  readonly payments = new Map<string, PaymentEntity>();
  readonly refunds = new Map<string, RefundEntity>();

  /** Refunds `amount` (default: what is left) of a captured payment, as the dashboard's refund does. */
  refund(payment: PaymentEntity, amount = payment.amount - payment.amount_refunded): RefundEntity {
    if (payment.status === "failed") throw new Error(`Payment ${payment.id} was not captured`);
    if (amount <= 0 || payment.amount_refunded + amount > payment.amount)
      throw new Error(`Cannot refund ${amount} of payment ${payment.id}`);
    payment.amount_refunded += amount;
    const full = payment.amount_refunded === payment.amount;
    payment.refund_status = full ? "full" : "partial";
    if (full) payment.status = "refunded";
    const refund: RefundEntity = {
      id: razorpayId("rfnd"),
      entity: "refund",
      amount,
      currency: payment.currency,
      payment_id: payment.id,
      notes: [],
      receipt: null,
      acquirer_data: { arn: null },
      created_at: nowSeconds(),
      batch_id: null,
      status: "processed",
      speed_processed: "normal",
      speed_requested: "normal",
    };
    this.refunds.set(refund.id, refund);
    return refund;
  }

  createOrder(input: { amount: number; currency: string; receipt: string | null; notes: Notes }): OrderEntity {
    const order: OrderEntity = {
      id: razorpayId("order"),
      entity: "order",
      amount: input.amount,
      amount_paid: 0,
      amount_due: input.amount,
      currency: input.currency,
      receipt: input.receipt,
      offer_id: null,
      status: "created",
      attempts: 0,
      notes: Object.keys(input.notes).length ? input.notes : [],
      created_at: nowSeconds(),
    };
    this.orders.set(order.id, order);
    return order;
  }

  /** Records one payment attempt on the order; a successful one is captured at once (auto-capture). */
  pay(order: OrderEntity, outcome: "success" | "failure"): PaymentEntity {
    order.attempts += 1;
    const ok = outcome === "success";
    const payment: PaymentEntity = {
      id: razorpayId("pay"),
      entity: "payment",
      amount: order.amount,
      currency: order.currency,
      status: ok ? "captured" : "failed",
      order_id: order.id,
      invoice_id: null,
      international: order.currency !== "INR",
      method: "card",
      amount_refunded: 0,
      refund_status: null,
      captured: ok,
      description: null,
      card_id: null,
      bank: null,
      wallet: null,
      vpa: null,
      email: "void@razorpay.com",
      contact: "+919999999999",
      notes: order.notes,
      fee: ok ? Math.round(order.amount * 0.02) : null,
      tax: ok ? Math.round(order.amount * 0.0036) : null,
      error_code: ok ? null : "BAD_REQUEST_ERROR",
      error_description: ok ? null : "Payment failed",
      error_source: ok ? null : "customer",
      error_step: ok ? null : "payment_authentication",
      error_reason: ok ? null : "payment_failed",
      acquirer_data: ok ? { auth_code: String(crypto.randomInt(100000, 999999)) } : {},
      created_at: nowSeconds(),
    };
    this.payments.set(payment.id, payment);
    if (ok) {
      order.status = "paid";
      order.amount_paid = order.amount;
      order.amount_due = 0;
    } else if (order.status === "created") {
      order.status = "attempted";
    }
    return payment;
  }
}
