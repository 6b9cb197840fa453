import { describe, expect, it } from "vitest";
import { DELETED, goneRunsStack, TRANSFERRED } from "../../test/gone-runs.testkit";
import { until } from "../../test/faults.testkit";
import { solveJobDone } from "../../test/jobs.testkit";

const { t, models, syncedIssue, solve, run, solutionsOf, eventsOf, delivered } = await goneRunsStack();

describe("a solve still queued when its issue goes from GitHub", () => {
  /** A first solve holding octocat's one slot (its model request never answers), and a second one queued behind it. */
  async function queuedBehindAnother(titles: [string, string]) {
    const first = await syncedIssue(titles[0]);
    const second = await syncedIssue(titles[1]);
    models.control.hangNext();
    const running = await solve(first.id);
    await until("the first run's model request", async () => models.control.requests.length === 1, 15_000, 20);
    const queued = await solve(second.id);
    await until("the second run held back", async () => (await run(queued)).status === "queued", 5_000, 50);
    return { first, second, running, queued };
  }

  it("ends at once on the issues.deleted webhook, its quota unit given back, and never starts", async () => {
    const q = await queuedBehindAnother(["Keeps the worker busy", "Deleted while waiting"]);
    expect(await delivered(() => t.control.deleteIssue("octocat", "todo-api", q.second.number))).toEqual([
      ["issues", 200],
    ]);
    expect(await run(q.queued)).toMatchObject({
      status: "cancelled",
      error_code: DELETED.code,
      error_message: DELETED.message,
      quota_state: "released",
      started_at: null,
    });
    expect((await eventsOf(q.queued)).at(-1)).toMatchObject({ event: "cancelled", data: { error: DELETED } });
    // The slot frees: still nothing of the second run reaches the model.
    const cancel = await t.stack.app.request(`/api/runs/${q.running}/cancel`, {
      method: "POST",
      headers: t.octocat.headers,
    });
    expect(cancel.status).toBe(200);
    await until("the first run to end", async () => (await run(q.running)).status === "cancelled", 10_000, 50);
    // A user's own Cancel still says so.
    expect(await run(q.running)).toMatchObject({ error_code: "run.cancelled", error_message: "The run was cancelled" });
    // Neither job can do more: the first ended, the second's left the queue (or ended without starting).
    await solveJobDone(t.stack.deps.queues, q.running);
    await solveJobDone(t.stack.deps.queues, q.queued);
    expect(models.control.requests.length).toBe(1);
    expect(await run(q.queued)).toMatchObject({ status: "cancelled", started_at: null });
  });

  it("is refused by the worker when it is picked up after its issue was marked gone, spending nothing", async () => {
    const q = await queuedBehindAnother(["Busy again", "Gone before its turn"]);
    // Marked by a process that stopped before it could stop the issue's runs (a crash, say).
    await t.stack.db
      .updateTable("issues")
      .set({ status: "closed", state: "closed", gone: "transferred" })
      .where("id", "=", q.second.id)
      .execute();
    expect((await run(q.queued)).status).toBe("queued");
    const cancel = await t.stack.app.request(`/api/runs/${q.running}/cancel`, {
      method: "POST",
      headers: t.octocat.headers,
    });
    expect(cancel.status).toBe(200);
    await until(
      "the queued run to be picked up and end",
      async () => (await run(q.queued)).status !== "queued",
      15_000,
    );
    const events = await eventsOf(q.queued);
    expect(events.at(-1)).toMatchObject({ event: "cancelled", data: { error: TRANSFERRED } });
    expect(await run(q.queued)).toMatchObject({
      status: "cancelled",
      error_code: TRANSFERRED.code,
      error_message: TRANSFERRED.message,
      quota_state: "released",
      solution_id: null,
    });
    expect(models.control.requests.length).toBe(1);
    expect(events.some((e) => e.event === "step" && (e.data as { status: string }).status === "running")).toBe(false);
    expect(await solutionsOf(q.second.id)).toBe(0);
  });
});
