import crypto from "node:crypto";
import { Hono, type Context } from "hono";
import { cors } from "hono/cors";
import { checkoutScript } from "./checkout.script";
import { RazorpayError, razorpayErrors } from "./errors";
import { hmacHex, type RazorpayState } from "./state";

export interface RazorpayCredentials {
  keyId: string;
  keySecret: string;
}

export interface CheckoutResult {
  status: "success" | "failure";
  orderId: string;
  paymentId: string;
}

export interface RazorpayAppDeps {
  state: RazorpayState;
  creds: RazorpayCredentials;
  /** The origin the browser loads the checkout script from. */
  origin: () => string;
  /** Called after each checkout payment (e.g. to deliver webhooks). */
  onCheckout: (r: CheckoutResult) => void;
  requestLog: Array<{ method: string; path: string; status: number }>;
}

const safeEqual = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
};

async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  try {
    const v: unknown = await c.req.json();
    if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    // Razorpay answers the same error for a missing and a malformed body
  }
  throw razorpayErrors.field("amount", "The amount field is required.");
}

function stringNotes(v: unknown): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (typeof v !== "object" || Array.isArray(v)) throw razorpayErrors.field("notes", "The notes must be an array.");
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length > 15)
    throw razorpayErrors.field("notes", "Number of fields in notes should be less than or equal to 15");
  return Object.fromEntries(entries.map(([k, x]) => [k, String(x)]));
}

/** The Orders and Payments API the `razorpay` SDK calls, plus the checkout script and its pay endpoint. */
export function createRazorpayApp(deps: RazorpayAppDeps): Hono {
  const app = new Hono();
  app.use("*", async (c, next) => {
    await next();
    deps.requestLog.push({ method: c.req.method, path: c.req.path, status: c.res.status });
  });
  app.onError((err, c) => {
    const e =
      err instanceof RazorpayError
        ? err
        : new RazorpayError(
            500,
            "We are facing some trouble completing your request at the moment. Please try again shortly.",
          );
    return c.json(e.body(), e.status);
  });
  app.notFound((c) => c.json(razorpayErrors.notFound().body(), 404));

  // Server-to-server API: HTTP basic auth with the key id and secret.
  app.use("/v1/orders/*", basicAuth(deps.creds));
  app.use("/v1/orders", basicAuth(deps.creds));
  app.use("/v1/payments/*", basicAuth(deps.creds));

  app.post("/v1/orders", async (c) => {
    const b = await jsonBody(c);
    const currency = typeof b.currency === "string" ? b.currency : "INR";
    if (b.amount === undefined) throw razorpayErrors.field("amount", "The amount field is required.");
    const amount = Number(b.amount);
    if (!Number.isInteger(amount)) throw razorpayErrors.field("amount", "The amount must be an integer.");
    if (amount < 100) throw razorpayErrors.field("amount", `The amount must be atleast ${currency} 1.00`);
    if (!/^[A-Z]{3}$/.test(currency)) throw razorpayErrors.field("currency", "The currency is invalid.");
    const receipt = typeof b.receipt === "string" ? b.receipt : null;
    if (receipt && receipt.length > 40)
      throw razorpayErrors.field("receipt", "The receipt may not be greater than 40 characters.");
    return c.json(deps.state.createOrder({ amount, currency, receipt, notes: stringNotes(b.notes) }));
  });

  app.get("/v1/orders/:id", (c) => {
    const order = deps.state.orders.get(c.req.param("id"));
    if (!order) throw razorpayErrors.noSuchId();
    return c.json(order);
  });

  app.get("/v1/payments/:id", (c) => {
    const payment = deps.state.payments.get(c.req.param("id"));
    if (!payment) throw razorpayErrors.noSuchId();
    return c.json(payment);
  });

  // Browser side: the checkout script and the call its modal makes.
  app.get("/v1/checkout.js", (c) =>
    c.body(checkoutScript(deps.origin()), 200, {
      "content-type": "application/javascript; charset=utf-8",
      "cache-control": "no-store",
    }),
  );
  app.use("/v1/checkout/*", cors({ origin: "*", allowMethods: ["POST", "OPTIONS"], allowHeaders: ["content-type"] }));
  app.post("/v1/checkout/pay", async (c) => {
    const b = (await c.req.json().catch(() => ({}))) as Record<string, unknown>;
    if (b.key_id !== deps.creds.keyId) throw razorpayErrors.invalidKey();
    const order = typeof b.order_id === "string" ? deps.state.orders.get(b.order_id) : undefined;
    if (!order) throw razorpayErrors.noSuchId();
    if (order.status === "paid") throw razorpayErrors.field("order_id", "Order has already been paid");
    const outcome = b.outcome === "failure" ? "failure" : "success";
    const payment = deps.state.pay(order, outcome);
    deps.onCheckout({ status: outcome, orderId: order.id, paymentId: payment.id });
    if (outcome === "failure") {
      return c.json({
        error: {
          code: payment.error_code,
          description: payment.error_description,
          source: payment.error_source,
          step: payment.error_step,
          reason: payment.error_reason,
          metadata: { order_id: order.id, payment_id: payment.id },
        },
      });
    }
    return c.json(signedCheckoutResponse(deps.creds.keySecret, order.id, payment.id));
  });
  return app;
}

/** What Razorpay's checkout hands the merchant's `handler`. */
export function signedCheckoutResponse(keySecret: string, orderId: string, paymentId: string) {
  return {
    razorpay_payment_id: paymentId,
    razorpay_order_id: orderId,
    razorpay_signature: hmacHex(keySecret, `${orderId}|${paymentId}`),
  };
}

function basicAuth(creds: RazorpayCredentials) {
  return async (c: Context, next: () => Promise<void>) => {
    const m = /^Basic\s+(\S+)$/i.exec(c.req.header("authorization") ?? "");
    if (!m?.[1]) throw razorpayErrors.invalidKey();
    const [id, ...rest] = Buffer.from(m[1], "base64").toString("utf8").split(":");
    if (id !== creds.keyId) throw razorpayErrors.invalidKey();
    if (!safeEqual(rest.join(":"), creds.keySecret)) throw razorpayErrors.authFailed();
    await next();
  };
}
