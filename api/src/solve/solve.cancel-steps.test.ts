import { describe, expect, it } from "vitest";
import { STEPS, STEP_CANCELLED } from "@fixloop/contract";
import { insertIssue } from "@fixloop/testkit";
import { until } from "../../test/faults.testkit";
import { readSse } from "../../test/sse.testkit";
import { holdStepWrites, workerWaits } from "../../test/hold-steps.testkit";
import { solveKit } from "../../test/solve.testkit";

const t = solveKit();

type StepEvent = { step: string; status: string; detail: { warnings: string[] } };
type RunView = { status: string; steps: { id: string; status: string; detail: { warnings: string[] } }[] };

describe("a Cancel noticed between two steps", () => {
  it("keeps the step that finished completed, in Postgres, the run's events and the page, and ends the run cancelled", async () => {
    const issue = await insertIssue(t.stack.db, t.userId, { number: 71 });
    const hold = holdStepWrites(t.stack.db);
    await hold.held;
    const runId = await (async () => {
      try {
        const res = await t.generate({ issueId: issue.id });
        expect(res.status).toBe(202);
        const { runId } = (await res.json()) as { runId: string };
        await until("the worker to claim the run and wait", () => workerWaits(t.stack.db), 15_000, 20);
        const cancel = await t.stack.app.request(`/api/runs/${runId}/cancel`, { method: "POST", headers: t.headers });
        expect(cancel.status).toBe(200);
        expect(await cancel.json()).toEqual({ runId, status: "cancelling" });
        return runId;
      } finally {
        await hold.release();
      }
    })();
    const events = await readSse(await t.events(runId));
    expect(events.at(-1)).toMatchObject({
      event: "cancelled",
      data: { error: { code: "run.cancelled", message: "The run was cancelled" } },
    });
    const run = await t.stack.db
      .selectFrom("solve_runs")
      .select(["status", "error_code", "solution_id"])
      .where("id", "=", runId)
      .executeTakeFirstOrThrow();
    expect(run).toEqual({ status: "cancelled", error_code: "run.cancelled", solution_id: null });

    // Analyzing ran to its end before the Cancel was read: it stays completed; nothing after it started.
    const stored = await t.stack.db
      .selectFrom("run_steps")
      .select(["step", "status"])
      .where("run_id", "=", runId)
      .execute();
    const statusOf = Object.fromEntries(stored.map((s) => [s.step, s.status]));
    expect(statusOf).toEqual({ analyzing: "completed" });

    const stepEvents = events.filter((e) => e.event === "step").map((e) => e.data as StepEvent);
    expect(stepEvents.map((e) => `${e.step}:${e.status}`)).toEqual(["analyzing:running", "analyzing:completed"]);
    expect(stepEvents.some((e) => e.detail.warnings.includes(STEP_CANCELLED))).toBe(false);

    const page = await t.stack.app.request(`/api/runs/${runId}`, { headers: t.headers });
    expect(page.status).toBe(200);
    const shown = ((await page.json()) as { run: RunView }).run;
    expect(shown.status).toBe("cancelled");
    expect(shown.steps.map((s) => `${s.id}:${s.status}`)).toEqual(
      STEPS.map((s) => `${s}:${s === "analyzing" ? "completed" : "pending"}`),
    );
    expect(t.models.control.requests.length).toBe(0);
  });
});
