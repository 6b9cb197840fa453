import { describe, expect, it } from "vitest";
import { currentUsagePeriod } from "@fixloop/db";
import { seedSolution } from "@fixloop/testkit";
import { createTestApp } from "../../test/testing";

/** A pending solution of a FREE user who has used `used` of the period's 10 units. */
async function setup(used: number) {
  const t = await createTestApp();
  const me = await t.loginAs();
  const { solutionId } = await seedSolution(t.db, {
    userId: me.user.id,
    repoFullName: "octocat/todo-api",
    issueNumber: 3,
    files: [{ filename: "src/paginate.ts", action: "modify", originalContent: "a\n", content: "b\n" }],
  });
  const { periodStart } = await currentUsagePeriod(t.db, me.user.id);
  await t.db
    .insertInto("usage_counters")
    .values({ user_id: me.user.id, period_start: periodStart, used })
    .onConflict((oc) => oc.columns(["user_id", "period_start"]).doUpdateSet({ used }))
    .execute();
  const refine = () =>
    t.app.request(`/api/validations/${solutionId}/refine`, {
      method: "POST",
      headers: { ...me.headers, "content-type": "application/json" },
      body: JSON.stringify({ feedback: "Add a test" }),
    });
  return { ...t, me, refine };
}

// A refinement starts through the same transition as a solve, so it gets both of its after-start behaviours.
describe("refine starts a run like a solve", () => {
  it("sends the 80% usage notice when its reservation crosses it", async () => {
    const t = await setup(7);
    expect((await t.refine()).status).toBe(202);
    const notices = await t.db.selectFrom("notifications").select("kind").where("user_id", "=", t.me.user.id).execute();
    expect(notices).toEqual([{ kind: "usage_80" }]);
  });

  it("fails the run as queue.unavailable and gives its quota unit back when the queue refuses the job", async () => {
    const t = await setup(2);
    await t.deps.queues.solve.close();
    expect((await t.refine()).status).toBeGreaterThanOrEqual(500);
    const runs = await t.db
      .selectFrom("solve_runs")
      .select(["status", "error_code", "quota_state"])
      .where("kind", "=", "refine")
      .execute();
    expect(runs).toEqual([{ status: "failed", error_code: "queue.unavailable", quota_state: "released" }]);
    const counter = await t.db.selectFrom("usage_counters").select("used").executeTakeFirstOrThrow();
    expect(counter.used).toBe(2);
  });
});
