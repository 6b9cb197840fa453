import { describe, expect, it } from "vitest";
import { activatePlan, reserveSpend, runs, settleSpend } from "@fixloop/db";
import { insertIssue } from "@fixloop/testkit";
import { createTestStack } from "../../test/stack";

const stack = await createTestStack({ workers: false });

describe("the Usage tab's spend after an upgrade", () => {
  it("shows the new period at $0 and, beside it, what the free period before it cost", async () => {
    const { headers, user } = await stack.signIn("octocat");
    const issue = await insertIssue(stack.db, user._id, { number: 1 });
    const hourAgo = new Date(Date.now() - 3_600_000);
    const runId = await stack.db.transaction().execute((trx) =>
      runs.create(trx, {
        user_id: user._id,
        issue_id: issue.id,
        model_id: "m",
        kind: "solve",
        quotaPeriodStart: hourAgo,
      }),
    );
    const spend = await reserveSpend(stack.db, {
      runId,
      userId: user._id,
      step: "generating",
      purpose: "answer",
      modelId: "m",
      attempt: 1,
      worstUsd: 2,
      periodStart: hourAgo,
      defaults: {},
    });
    await settleSpend(stack.db, spend.id ?? "", {
      tokensIn: 1000,
      tokensOut: 200,
      costUsd: 1.25,
      outcome: "ok",
      confirmed: true,
    });
    const caps = async () => (await stack.client(headers).costs.caps.$get()).json();
    expect((await caps()).spentThisPeriodUsd).toBeCloseTo(1.25, 6);

    // Paid a moment after that request (the period starts at the payment).
    const paidAt = new Date(Date.now() + 1000);
    await activatePlan(stack.db, user._id, "PRO", paidAt);
    const after = await caps();
    expect(after.spentThisPeriodUsd).toBe(0);
    expect(after.previousPeriod.spentUsd).toBeCloseTo(1.25, 6);
    expect(after.periodStart).toBe(paidAt.toISOString());
    expect(new Date(after.previousPeriod.start).getTime()).toBeLessThan(hourAgo.getTime());
  });
});
