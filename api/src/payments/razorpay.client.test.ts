import { afterAll, describe, expect, it } from "vitest";
import { startRazorpaySandbox } from "@fixloop/testkit/sandbox";
import { createRazorpayClient } from "./razorpay.client";
import { createTestApp } from "../../test/testing";

const sandbox = await startRazorpaySandbox();
afterAll(() => sandbox.stop());
const config = (secret = sandbox.keySecret) => ({
  RAZORPAY_KEY_ID: sandbox.keyId,
  RAZORPAY_KEY_SECRET: secret,
  RAZORPAY_API_URL: sandbox.url,
});

describe("the razorpay SDK pointed at the stand-in", () => {
  it("creates an order over the SDK's own HTTP client with basic auth", async () => {
    const order = await createRazorpayClient(config()).createOrder({
      amount: 1500,
      currency: "USD",
      receipt: "r1",
      notes: { plan: "PRO" },
    });
    expect(order).toMatchObject({ amount: 1500, currency: "USD" });
    expect(order.id).toMatch(/^order_[A-Za-z0-9]{14}$/);
    expect(sandbox.control.requestLog.at(-1)).toEqual({ method: "POST", path: "/v1/orders", status: 200 });
  });

  it("surfaces Razorpay's error shapes for a wrong secret and a too-small amount", async () => {
    await expect(
      createRazorpayClient(config("wrong")).createOrder({ amount: 1500, currency: "USD", receipt: "r", notes: {} }),
    ).rejects.toMatchObject({
      statusCode: 401,
      error: { code: "BAD_REQUEST_ERROR", description: "Authentication failed" },
    });
    await expect(
      createRazorpayClient(config()).createOrder({ amount: 50, currency: "USD", receipt: "r", notes: {} }),
    ).rejects.toMatchObject({
      statusCode: 400,
      error: { description: "The amount must be atleast USD 1.00", field: "amount" },
    });
  });
});

describe("create-order when the provider refuses", () => {
  it("answers 'Failed to create order' and stores nothing", async () => {
    const broken = await createTestApp({ ...sandbox.env, RAZORPAY_KEY_SECRET: "not-the-secret" });
    const { headers, user } = await broken.loginAs();
    const res = await broken.app.request("/api/payments/create-order", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ planId: "PRO" }),
    });
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({ error: { code: "payments.order_failed", message: "Failed to create order" } });
    expect(await broken.db.selectFrom("payments").select("id").where("user_id", "=", user.id).execute()).toHaveLength(
      0,
    );
  });
});
