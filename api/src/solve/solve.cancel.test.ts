import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { createTestStack, type TestStack } from "../../test/stack";
import { insertIssue } from "@fixloop/testkit";
import { readSse } from "../../test/sse.testkit";

// No worker serves this stack's queues, so a started run stays queued until it is cancelled.
let models: ModelSandbox;
let stack: TestStack;

beforeAll(async () => {
  models = await startModelSandbox();
  stack = await createTestStack({ env: models.env, workers: false, logLevel: "warn" });
});
afterAll(async () => {
  await models?.stop();
});

describe("cancelling a queued run", () => {
  it("ends it at once with its quota unit given back, removes its job and announces it", async () => {
    const me = await stack.signIn("octocat");
    const headers = { ...me.headers, "content-type": "application/json" };
    const used = async () =>
      (await stack.db.selectFrom("usage_counters").select("used").where("user_id", "=", me.user._id).executeTakeFirst())
        ?.used ?? 0;
    const issue = await insertIssue(stack.db, me.user._id, { number: 41 });
    const api = stack.client(headers);
    const started = await api.ai["generate-solution"].$post({ query: {}, json: { issueId: issue.id } });
    expect(started.status).toBe(202);
    const { runId } = await started.json();
    expect(await used()).toBe(1);
    expect(await stack.deps.queues.solve.getJobCounts("waiting", "prioritized", "delayed")).not.toEqual({
      waiting: 0,
      prioritized: 0,
      delayed: 0,
    });

    const res = await api.runs[":id"].cancel.$post({ param: { id: runId } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ runId, status: "cancelled" });
    const run = await stack.db.selectFrom("solve_runs").selectAll().where("id", "=", runId).executeTakeFirstOrThrow();
    expect([run.status, run.error_code, run.quota_state]).toEqual(["cancelled", "run.cancelled", "released"]);
    expect(await used()).toBe(0);
    expect(await stack.deps.queues.solve.getJobCounts("waiting", "prioritized", "delayed")).toEqual({
      waiting: 0,
      prioritized: 0,
      delayed: 0,
    });
    const events = await readSse(await api.runs[":id"].events.$get({ param: { id: runId } }));
    expect(events.at(-1)?.event).toBe("cancelled");

    // Cancelling again changes nothing and says the run has ended.
    const again = await api.runs[":id"].cancel.$post({ param: { id: runId } });
    expect(again.status).toBe(409);
    expect(await used()).toBe(0);
  });
});

describe("solving again right after Cancel", () => {
  const generate = (headers: Record<string, string>, issueId: string) =>
    stack.client(headers).ai["generate-solution"].$post({ query: {}, json: { issueId } });
  const cancel = (headers: Record<string, string>, id: string) =>
    stack.client(headers).runs[":id"].cancel.$post({ param: { id } });

  it("starts a new run once a queued run is cancelled, never answering the cancelled run's id", async () => {
    const me = await stack.signIn("octocat");
    const headers = { ...me.headers, "content-type": "application/json" };
    const issue = await insertIssue(stack.db, me.user._id, { number: 42 });
    const { runId: first } = await (await generate(headers, issue.id)).json();
    expect((await cancel(headers, first)).status).toBe(200);

    const again = await generate(headers, issue.id);
    expect(again.status).toBe(202);
    const { runId: second } = await again.json();
    expect(second).not.toBe(first);
    const run = await stack.db
      .selectFrom("solve_runs")
      .select("status")
      .where("id", "=", second)
      .executeTakeFirstOrThrow();
    expect(run.status).toBe("queued");
  });

  it("answers 409 'still cancelling' while a running run winds down, and starts nothing", async () => {
    const me = await stack.signIn("octocat");
    const headers = { ...me.headers, "content-type": "application/json" };
    const issue = await insertIssue(stack.db, me.user._id, { number: 43 });
    const { runId } = await (await generate(headers, issue.id)).json();
    // A worker holds the run: Cancel only flags it, and the run ends when the worker sees the flag.
    await stack.db.updateTable("solve_runs").set({ status: "running" }).where("id", "=", runId).execute();
    const cancelled = await cancel(headers, runId);
    expect(await cancelled.json()).toEqual({ runId, status: "cancelling" });

    const again = await generate(headers, issue.id);
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      error: { code: "run.cancelling", message: "The previous run is still cancelling, try in a moment" },
    });
    const runs = await stack.db.selectFrom("solve_runs").select("id").where("issue_id", "=", issue.id).execute();
    expect(runs.map((r) => r.id)).toEqual([runId]);
  });
});
