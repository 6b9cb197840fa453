import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { createTestStack, type TestStack } from "../../test/stack";
import { insertIssue } from "@fixloop/testkit";
import { makeEnterprise, usedQuota } from "../../test/faults.testkit";

/**
 * The model provider misbehaving in turns (429, 500, timeouts, malformed output, outages), run
 * after run: each run succeeds or fails with a clear reason, and only successful runs are charged.
 */
interface Turn {
  name: string;
  inject(m: ModelSandbox): void;
  expect: "completed" | { code: string };
}

const TURNS: Turn[] = [
  {
    name: "429 with retry-after, then an answer",
    inject: (m) => m.control.failNext({ status: 429, retryAfter: 1 }),
    expect: "completed",
  },
  {
    name: "500 twice, then an answer",
    inject: (m) => m.control.failNext({ status: 500, times: 2 }),
    expect: "completed",
  },
  {
    name: "a request that never answers (timeout), then an answer",
    inject: (m) => m.control.hangNext(),
    expect: "completed",
  },
  { name: "malformed output once (repaired)", inject: (m) => m.control.malformedNext(1), expect: "completed" },
  {
    name: "malformed output every time",
    inject: (m) => m.control.malformedNext(10),
    expect: { code: "model.malformed_output" },
  },
  {
    name: "provider down (503 on every attempt)",
    inject: (m) => m.control.failNext({ status: 503, retryAfter: 0, times: 50 }),
    expect: { code: "model.unavailable" },
  },
  { name: "every attempt times out", inject: (m) => m.control.hangNext(50), expect: { code: "model.unavailable" } },
  {
    name: "529 overloaded, then an answer",
    inject: (m) => m.control.failNext({ status: 529, times: 1 }),
    expect: "completed",
  },
];
const ROUNDS = 2;

let models: ModelSandbox;
let stack: TestStack;

beforeAll(async () => {
  models = await startModelSandbox();
  stack = await createTestStack({
    env: { ...models.env, MODEL_TIMEOUT_SECONDS: "2" },
    workers: ["solve"],
    logLevel: "warn",
  });
}, 120_000);
afterAll(async () => {
  await models?.stop();
});

describe("model provider faults in turns", () => {
  it("each run succeeds or fails with a clear reason; failed runs are never charged", async () => {
    const me = await stack.signIn("octocat");
    await makeEnterprise(stack.db, me.user._id);
    const headers = { ...me.headers, "content-type": "application/json" };
    const outcomes: { turn: string; status: string; code: string | null; message: string | null; quota: string }[] = [];
    let n = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const turn of TURNS) {
        models.control.reset();
        turn.inject(models);
        const issue = await insertIssue(stack.db, me.user._id, { number: 300 + n++ });
        const res = await stack.app.request("/api/ai/generate-solution?wait=true", {
          method: "POST",
          headers,
          body: JSON.stringify({ issueId: issue.id }),
        });
        const body = (await res.json()) as { runId?: string; error?: { code: string; message: string } };
        const run = await stack.db
          .selectFrom("solve_runs")
          .selectAll()
          .where("issue_id", "=", issue.id)
          .executeTakeFirstOrThrow();
        outcomes.push({
          turn: turn.name,
          status: run.status,
          code: run.error_code,
          message: run.error_message,
          quota: run.quota_state,
        });
        if (turn.expect === "completed") {
          expect(res.status, `${turn.name}: ${JSON.stringify(body)}`).toBe(200);
          expect([run.status, run.quota_state], turn.name).toEqual(["completed", "charged"]);
        } else {
          expect(res.status, turn.name).toBeGreaterThanOrEqual(400);
          expect(body.error?.code, turn.name).toBe(turn.expect.code);
          expect([run.status, run.error_code, run.quota_state], turn.name).toEqual([
            "failed",
            turn.expect.code,
            "released",
          ]);
          expect(run.error_message, turn.name).toMatch(/Generating Solution/);
        }
      }
    }
    const completed = outcomes.filter((o) => o.status === "completed").length;
    const figures = {
      faultsInjected: outcomes.length,
      completed,
      failedWithReason: outcomes.filter((o) => o.status === "failed" && o.code && o.message).length,
      unclear: outcomes.filter((o) => o.status !== "completed" && !(o.code && o.message)).length,
      chargedFailures: outcomes.filter((o) => o.status === "failed" && o.quota === "charged").length,
      quotaUsed: await usedQuota(stack.db, me.user._id),
    };
    console.log(`provider fault figures: ${JSON.stringify(figures)}`);
    expect(figures.unclear).toBe(0);
    expect(figures.chargedFailures).toBe(0);
    expect(figures.quotaUsed).toBe(completed);
  }, 240_000);
});
