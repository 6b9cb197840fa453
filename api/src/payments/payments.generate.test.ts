import { afterAll, describe, expect, it } from "vitest";
import { currentUsagePeriod } from "@fixloop/db";
import { startModelSandbox } from "@fixloop/testkit/sandbox";
import { insertIssue } from "@fixloop/testkit";
import { createPaymentsTestApp } from "../../test/payments.testkit";
import { errorOf } from "../../test/testing";

const models = await startModelSandbox();
afterAll(() => models.stop());
const t = await createPaymentsTestApp(models.env);

const generate = (headers: Record<string, string>, body: { issueId: string; modelId?: string }) =>
  t.app.request("/api/ai/generate-solution", t.json(headers, body));

async function allowedByProvider(headers: Record<string, string>) {
  const res = await t.client(headers).ai.models.$get();
  const { allModels } = await res.json();
  const out: Record<string, boolean> = {};
  for (const m of allModels) out[m.provider] = (out[m.provider] ?? true) && m.allowed;
  return out;
}

describe("plans at the generate endpoint", () => {
  it("refuses a FREE user's 11th solution, and paying for PRO lifts the limit and unlocks OpenAI and Anthropic", async () => {
    const { user, headers } = await t.loginAs();
    const { periodStart } = await currentUsagePeriod(t.db, user.id);
    await t.db.insertInto("usage_counters").values({ user_id: user.id, period_start: periodStart, used: 10 }).execute();
    const issue = await insertIssue(t.db, user.id);

    const refused = await generate(headers, { issueId: issue.id });
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).message).toBe("Usage limit exceeded");
    expect(await allowedByProvider(headers)).toMatchObject({ groq: true, openai: false, anthropic: false });
    const premium = await generate(headers, { issueId: issue.id, modelId: "gpt-4.1" });
    expect((await errorOf(premium)).message).toBe("Premium subscription required");

    const order = await t.createOrder(headers, "PRO");
    const { response } = t.sandbox.control.pay(order.id);
    const verified = await t.verify(headers, {
      orderId: order.id,
      paymentId: response.razorpay_payment_id,
      signature: response.razorpay_signature,
      planId: "PRO",
    });
    expect(verified.status).toBe(200);

    expect(await allowedByProvider(headers)).toMatchObject({ groq: true, openai: true, anthropic: true });
    const accepted = await generate(headers, { issueId: issue.id, modelId: "claude-sonnet-4-5" });
    expect(accepted.status).toBe(202);
    const stats = await (await t.client(headers).payments.usage.stats.$get()).json();
    expect(stats).toMatchObject({ monthlySolutions: 1, monthlyLimit: 100 });
  });
});
