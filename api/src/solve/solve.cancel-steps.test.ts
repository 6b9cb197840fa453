import { describe, expect, it } from "vitest";
import { STEPS, STEP_CANCELLED } from "@fixloop/contract";
import { insertIssue } from "@fixloop/testkit";
import { askCancel, endedCancelled, holdStepWrites, startClaimed } from "../../test/hold-steps.testkit";
import { solveKit } from "../../test/solve.testkit";

const t = solveKit();

describe("a Cancel noticed between two steps", () => {
  it("keeps the step that finished completed, in Postgres, the run's events and the page, and ends the run cancelled", async () => {
    const issue = await insertIssue(t.stack.db, t.userId, { number: 71 });
    const hold = holdStepWrites(t.stack.db);
    await hold.held;
    const runId = await (async () => {
      try {
        const runId = await startClaimed(t, issue.id);
        await askCancel(t, runId);
        return runId;
      } finally {
        await hold.release();
      }
    })();
    const { stepEvents, stored, shown } = await endedCancelled(t, runId);

    // Analyzing ran to its end before the Cancel was read: it stays completed; nothing after it started.
    expect(stored).toEqual({ analyzing: "completed" });
    expect(stepEvents.map((e) => `${e.step}:${e.status}`)).toEqual(["analyzing:running", "analyzing:completed"]);
    expect(stepEvents.some((e) => e.detail.warnings.includes(STEP_CANCELLED))).toBe(false);
    expect(shown).toEqual(STEPS.map((s) => `${s}:${s === "analyzing" ? "completed" : "pending"}`));
    expect(t.models.control.requests.length).toBe(0);
  });
});
