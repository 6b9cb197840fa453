import { describe, expect, it } from "vitest";
import { STEPS, STEP_CANCELLED } from "@fixloop/contract";
import { insertIssue } from "@fixloop/testkit";
import { until } from "../../test/faults.testkit";
import {
  askCancel,
  endedCancelled,
  holdStepStart,
  holdStepWrites,
  pendingStep,
  startClaimed,
  workerWaitsOnStep,
} from "../../test/hold-steps.testkit";
import { solveKit } from "../../test/solve.testkit";

// With the sandbox off, Validating runs no test and never looks at the run's cancel signal: a Cancel
// that comes once it started is read after it, the last step, as solve.cancel-steps.test.ts reads
// one between two steps. (With tests, such a Cancel stops the test run: the step ends cancelled.)
const t = solveKit({ env: (m) => ({ ...m.env, SANDBOX_BACKEND: "off" }) });

describe("a Cancel noticed after the last step", () => {
  it("keeps Validating completed and the run ends cancelled, with no solution", async () => {
    const issue = await insertIssue(t.stack.db, t.userId, { number: 72 });
    // The worker waits at Analyzing's start while Validating's row is written, pending, and locked
    // long before the worker gets there.
    const first = holdStepWrites(t.stack.db);
    await first.held;
    let validating: Awaited<ReturnType<typeof holdStepStart>> | undefined;
    const runId = await (async () => {
      try {
        const runId = await startClaimed(t, issue.id);
        await first.release(pendingStep(runId, "validating"));
        validating = await holdStepStart(t.stack.db, runId, "validating");
        // The steps before Validating run to their end; the worker then waits at Validating's start,
        // past that step's own check for a Cancel.
        await until("the worker to wait at Validating's start", () => workerWaitsOnStep(t.stack.db), 25_000, 20);
        await askCancel(t, runId);
        return runId;
      } finally {
        await first.release();
        await validating?.release();
      }
    })();
    const { stepEvents, stored, shown } = await endedCancelled(t, runId);
    expect(await t.stack.db.selectFrom("solutions").select("id").where("issue_id", "=", issue.id).execute()).toEqual(
      [],
    );

    // Every step ran to its end before the Cancel was read after the last one: all stay completed.
    expect(stored).toEqual(Object.fromEntries(STEPS.map((s) => [s, "completed"])));
    expect(stepEvents.filter((e) => e.step === "validating").map((e) => e.status)).toEqual(["running", "completed"]);
    expect(stepEvents.some((e) => e.status === "failed")).toBe(false);
    expect(stepEvents.some((e) => e.detail.warnings.includes(STEP_CANCELLED))).toBe(false);
    expect(shown).toEqual(STEPS.map((s) => `${s}:completed`));
  });
});
