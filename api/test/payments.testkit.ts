import { afterAll } from "vitest";
import { startRazorpaySandbox } from "@fixloop/testkit/sandbox";
import { createTestApp } from "./testing";

/** A real app on its own database, wired to a fresh payment stand-in (plus any other `env`). */
export async function createPaymentsTestApp(env: Record<string, string> = {}) {
  const sandbox = await startRazorpaySandbox();
  afterAll(() => sandbox.stop());
  const t = await createTestApp({ ...env, ...sandbox.env, RATE_LIMITS_ENABLED: "false" });
  const json = (headers: Record<string, string>, body: unknown) => ({
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

  async function createOrder(headers: Record<string, string>, planId = "PRO") {
    const res = await t.app.request("/api/payments/create-order", json(headers, { planId }));
    const body = (await res.json()) as { order: { id: string; amount: number; currency: string } };
    if (res.status !== 200) throw new Error(`create-order answered ${res.status}: ${JSON.stringify(body)}`);
    return body.order;
  }

  const verify = (
    headers: Record<string, string>,
    body: { orderId: string; paymentId: string; signature: string; planId: string },
  ) => t.app.request("/api/payments/verify-payment", json(headers, body));

  const postWebhook = (d: { body: string; headers: Record<string, string> }) =>
    t.app.request("/api/payments/webhook", { method: "POST", headers: d.headers, body: d.body });

  async function subscription(headers: Record<string, string>) {
    const res = await t.app.request("/api/payments/subscription", { headers });
    return (await res.json()) as {
      subscription: {
        plan: string;
        status: string;
        currentPeriodStart: string;
        currentPeriodEnd: string;
        monthlyUsage: number;
      };
      recentPayments: Array<{ orderId: string; status: string; plan: string }>;
    };
  }

  async function activations(userId: string) {
    const rows = await t.db
      .selectFrom("notifications")
      .select("id")
      .where("user_id", "=", userId)
      .where("kind", "=", "plan_activated")
      .execute();
    return rows.length;
  }

  return { ...t, sandbox, json, createOrder, verify, postWebhook, subscription, activations };
}
