import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { createTestStack, type TestStack } from "../../test/stack";
import { insertIssue } from "@fixloop/testkit";

let models: ModelSandbox;
let stack: TestStack;

beforeAll(async () => {
  models = await startModelSandbox();
  stack = await createTestStack({ env: models.env, workers: ["solve"], logLevel: "warn" });
}, 120_000);
afterAll(async () => {
  await models?.stop();
});

describe("a model answer holding text Postgres cannot store", () => {
  it("finishes the run once, storing NUL and lone surrogates as U+FFFD", async () => {
    const me = await stack.signIn("octocat", { scopes: ["public_repo"] });
    const headers = { ...me.headers, "content-type": "application/json" };
    const issue = await insertIssue(stack.db, me.user._id, { repo: "octocat/todo-api", number: 77, title: "NUL" });
    models.control.respondWith((p) => p.includes("Issue #77 ("), {
      analysis: "The offset\u0000 is wrong \ud800x.",
      proposedSolution: "Fix it\u0000.",
      confidence: 80,
      files: [{ filename: "docs/nul.md", action: "create", content: "notes \udc00 here\n", edits: [] }],
    });
    const before = models.control.requests.length;
    const res = await stack.app.request("/api/ai/generate-solution?wait=true", {
      method: "POST",
      headers,
      body: JSON.stringify({ issueId: issue.id }),
    });
    const body = (await res.json()) as { runId: string; solution?: { _id: string } };
    expect(res.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    const run = await stack.db
      .selectFrom("solve_runs")
      .select(["status", "error_code"])
      .where("id", "=", body.runId)
      .executeTakeFirstOrThrow();
    expect(run).toEqual({ status: "completed", error_code: null });
    const solution = await stack.db
      .selectFrom("solutions")
      .select(["analysis", "proposed_solution", "files_changed"])
      .where("id", "=", body.solution?._id ?? "")
      .executeTakeFirstOrThrow();
    expect(solution.analysis).toBe("The offset\uFFFD is wrong \uFFFDx.");
    expect(solution.proposed_solution).toBe("Fix it\uFFFD.");
    expect((solution.files_changed as { content: string }[])[0]?.content).toBe("notes \uFFFD here\n");
    // One generation, not three attempts of the job.
    const generations = models.control.requests.slice(before).filter((r) => r.prompt.includes("Issue #77 ("));
    expect(generations).toHaveLength(1);
    // Charged once, and the run's cost is the ledger's (it read $0 when the write failed).
    const rows = await stack.db
      .selectFrom("model_requests")
      .select(["step", "purpose", "cost_usd"])
      .where("run_id", "=", body.runId)
      .orderBy("created_at")
      .execute();
    // Step 4's requests once each: the reproduction test (asked before the fix) and the answer.
    expect(rows.filter((r) => r.step === "generating").map((r) => r.purpose)).toEqual(["reproduction test", "answer"]);
    const cost = await stack.db
      .selectFrom("solve_runs")
      .select("cost_usd")
      .where("id", "=", body.runId)
      .executeTakeFirstOrThrow();
    expect(Number(cost.cost_usd)).toBeGreaterThan(0);
    expect(Number(cost.cost_usd)).toBeCloseTo(
      rows.reduce((n, r) => n + Number(r.cost_usd), 0),
      6,
    );
  });
});
