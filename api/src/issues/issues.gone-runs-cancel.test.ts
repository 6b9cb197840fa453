import { describe, expect, it } from "vitest";
import { DELETED, goneRunsStack } from "../../test/gone-runs.testkit";
import { until, usedQuota } from "../../test/faults.testkit";
import { holdStepWrites, workerWaits } from "../../test/hold-steps.testkit";

const { t, models, syncedIssue, solve, run, eventsOf, shown, delivered } = await goneRunsStack();

describe("a user's Cancel and the issue going from GitHub, both before the worker ends the run", () => {
  const cancelByUser = (runId: string) =>
    t.stack.app.request(`/api/runs/${runId}/cancel`, { method: "POST", headers: t.octocat.headers });

  async function heldRun(title: string) {
    const issue = await syncedIssue(title);
    const hold = holdStepWrites(t.stack.db);
    await hold.held;
    try {
      const runId = await solve(issue.id);
      await until("the worker to claim the run and wait", () => workerWaits(t.stack.db), 15_000, 20);
      expect((await run(runId)).status).toBe("running");
      return { issue, runId, hold };
    } catch (err) {
      await hold.release();
      throw err;
    }
  }

  it("ends as the user's Cancel when the issue is deleted after it, stopping nothing twice", async () => {
    const before = await usedQuota(t.stack.db, t.octocat.user._id);
    const h = await heldRun("Cancelled by its user, then deleted");
    try {
      const cancel = await cancelByUser(h.runId);
      expect(cancel.status).toBe(200);
      expect(await cancel.json()).toEqual({ runId: h.runId, status: "cancelling" });
      expect(await delivered(() => t.control.deleteIssue("octocat", "todo-api", h.issue.number))).toEqual([
        ["issues", 200],
      ]);
    } finally {
      await h.hold.release();
    }
    const events = await eventsOf(h.runId);
    const CANCELLED = { code: "run.cancelled", message: "The run was cancelled" };
    expect(events.at(-1)).toMatchObject({ event: "cancelled", data: { error: CANCELLED } });
    expect(await run(h.runId)).toMatchObject({
      status: "cancelled",
      error_code: CANCELLED.code,
      error_message: CANCELLED.message,
      quota_state: "released",
      solution_id: null,
    });
    expect(await shown(h.runId)).toMatchObject({ status: "cancelled", error: CANCELLED });
    // The issue is still marked gone: only the run's reason is the user's.
    const issue = await t.stack.db
      .selectFrom("issues")
      .select("gone")
      .where("id", "=", h.issue.id)
      .executeTakeFirstOrThrow();
    expect(issue.gone).toBe("deleted");
    expect(models.control.requests.length).toBe(0);
    expect(await usedQuota(t.stack.db, t.octocat.user._id)).toBe(before);
  });

  it("ends as the issue gone when the issue is deleted before the user's Cancel", async () => {
    const h = await heldRun("Deleted, then cancelled by its user");
    try {
      expect(await delivered(() => t.control.deleteIssue("octocat", "todo-api", h.issue.number))).toEqual([
        ["issues", 200],
      ]);
      const cancel = await cancelByUser(h.runId);
      expect(cancel.status).toBe(200);
      expect(await cancel.json()).toEqual({ runId: h.runId, status: "cancelling" });
    } finally {
      await h.hold.release();
    }
    const events = await eventsOf(h.runId);
    expect(events.at(-1)).toMatchObject({ event: "cancelled", data: { error: DELETED } });
    expect(await run(h.runId)).toMatchObject({
      status: "cancelled",
      error_code: DELETED.code,
      error_message: DELETED.message,
      quota_state: "released",
      solution_id: null,
    });
    expect(await shown(h.runId)).toMatchObject({ status: "cancelled", error: DELETED });
  });
});
