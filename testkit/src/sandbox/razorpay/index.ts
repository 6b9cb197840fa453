import crypto from "node:crypto";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { createRazorpayApp, signedCheckoutResponse, type CheckoutResult } from "./server";
import { STAND_IN_KEEP_ALIVE_MS } from "../keep-alive";
import { RazorpayState, razorpayId, type PaymentEntity } from "./state";
import {
  buildWebhook,
  deliverWebhook,
  type DeliveryResult,
  type WebhookDelivery,
  type WebhookEventType,
} from "./webhooks";

export type { WebhookDelivery, WebhookEventType, DeliveryResult } from "./webhooks";
export type { OrderEntity, PaymentEntity, RefundEntity } from "./state";

export interface RazorpaySandboxControl {
  state: RazorpayState;
  requestLog: Array<{ method: string; path: string; status: number }>;
  /** Where webhooks go; undefined disables automatic delivery. */
  webhookUrl: string | undefined;
  /** Deliver payment.captured/order.paid (or payment.failed) after each checkout payment. Default true. */
  autoWebhooks: boolean;
  deliveries: DeliveryResult[];
  /** Pays an order as the checkout modal would, without a browser; webhooks are returned, not sent. */
  pay(
    orderId: string,
    outcome?: "success" | "failure",
  ): {
    payment: PaymentEntity;
    response: ReturnType<typeof signedCheckoutResponse>;
    webhooks: WebhookDelivery[];
  };
  /**
   * Refunds a captured payment (all that is left unless `amount` says less), as the operator does
   * from Razorpay's dashboard; its refund.processed event is returned, not sent.
   */
  refund(paymentId: string, amount?: number): WebhookDelivery;
  /** A signed webhook for a stored payment; pass `eventId` to build a redelivery of the same event. */
  webhook(type: WebhookEventType, paymentId: string, eventId?: string): WebhookDelivery;
  deliver(d: WebhookDelivery, url?: string): Promise<DeliveryResult>;
  /** Resolves once every automatic delivery started so far has finished. */
  settled(): Promise<void>;
}

export interface RazorpaySandbox {
  url: string;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /** Settings that point the API at this stand-in. */
  env: Record<string, string>;
  control: RazorpaySandboxControl;
  stop(): Promise<void>;
}

const secret = (n: number) => crypto.randomBytes(n).toString("base64url").slice(0, n);

/** Starts the payment stand-in on `port` (0 or absent picks a free one). */
export async function startRazorpaySandbox(
  opts: { port?: number; webhookUrl?: string; log?: (line: string) => void } = {},
): Promise<RazorpaySandbox> {
  const keyId = razorpayId("rzp_test");
  const keySecret = secret(24);
  const webhookSecret = secret(32);
  const accountId = razorpayId("acc");
  const state = new RazorpayState();
  const pending = new Set<Promise<unknown>>();
  let url = "";

  const control: RazorpaySandboxControl = {
    state,
    requestLog: [],
    webhookUrl: opts.webhookUrl,
    autoWebhooks: true,
    deliveries: [],
    pay(orderId, outcome = "success") {
      const order = state.orders.get(orderId);
      if (!order) throw new Error(`No such order ${orderId}`);
      const payment = state.pay(order, outcome);
      return {
        payment,
        response: signedCheckoutResponse(keySecret, orderId, payment.id),
        webhooks: eventsFor(payment),
      };
    },
    refund(paymentId, amount) {
      const payment = state.payments.get(paymentId);
      const order = payment && state.orders.get(payment.order_id);
      if (!payment || !order) throw new Error(`No such payment ${paymentId}`);
      const refund = state.refund(payment, amount);
      return buildWebhook({ accountId, secret: webhookSecret }, "refund.processed", payment, order, refund);
    },
    webhook(type, paymentId, eventId) {
      const payment = state.payments.get(paymentId);
      const order = payment && state.orders.get(payment.order_id);
      if (!payment || !order) throw new Error(`No such payment ${paymentId}`);
      return buildWebhook({ accountId, secret: webhookSecret, eventId }, type, payment, order);
    },
    async deliver(d, to) {
      const target = to ?? control.webhookUrl;
      if (!target) throw new Error("No webhook URL configured");
      const r = await deliverWebhook(target, d);
      control.deliveries.push(r);
      if (r.status < 200 || r.status >= 300)
        opts.log?.(`razorpay sandbox: webhook ${d.type} ${d.eventId} answered ${r.status}`);
      return r;
    },
    async settled() {
      await Promise.allSettled([...pending]);
    },
  };

  function eventsFor(p: PaymentEntity): WebhookDelivery[] {
    const types: WebhookEventType[] = p.status === "captured" ? ["payment.captured", "order.paid"] : ["payment.failed"];
    return types.map((t) => control.webhook(t, p.id));
  }

  function onCheckout(r: CheckoutResult) {
    if (!control.autoWebhooks || !control.webhookUrl) return;
    const payment = state.payments.get(r.paymentId);
    if (!payment) return;
    const run = (async () => {
      for (const d of eventsFor(payment)) await control.deliver(d);
    })();
    pending.add(run);
    void run.finally(() => pending.delete(run));
  }

  const app = createRazorpayApp({
    state,
    creds: { keyId, keySecret },
    origin: () => url,
    onCheckout,
    requestLog: control.requestLog,
  });
  const server = serve({ fetch: app.fetch, port: opts.port ?? 0, hostname: "127.0.0.1" });
  (server as import("node:http").Server).keepAliveTimeout = STAND_IN_KEEP_ALIVE_MS;
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  opts.log?.(`razorpay sandbox listening on ${url}`);

  return {
    url,
    keyId,
    keySecret,
    webhookSecret,
    env: {
      RAZORPAY_KEY_ID: keyId,
      RAZORPAY_KEY_SECRET: keySecret,
      RAZORPAY_WEBHOOK_SECRET: webhookSecret,
      RAZORPAY_API_URL: url,
      RAZORPAY_CHECKOUT_URL: `${url}/v1/checkout.js`,
    },
    control,
    async stop() {
      await control.settled();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
