import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startModelSandbox, type ModelSandbox } from "@fixloop/infra/sandbox";
import { createTestStack, type TestStack } from "@fixloop/infra/testing/stack";
import { insertIssue } from "@fixloop/infra/testing";
import { readSse } from "../../test/sse.testkit";

let models: ModelSandbox;
let stack: TestStack;
let headers: Record<string, string>;
let userId: string;
let n = 10;

beforeAll(async () => {
  models = await startModelSandbox();
  stack = await createTestStack({ env: models.env, workers: ["solve"], logLevel: "warn" });
  const me = await stack.signIn("octocat");
  headers = { ...me.headers, "content-type": "application/json" };
  userId = me.user._id;
});
afterAll(async () => {
  await models?.stop();
});
beforeEach(() => models.control.reset());

async function start() {
  const issue = await insertIssue(stack.db, userId, { number: n++ });
  const res = await stack.app.request("/api/ai/generate-solution", {
    method: "POST",
    headers,
    body: JSON.stringify({ issueId: issue.id }),
  });
  const { runId } = (await res.json()) as { runId: string };
  return { issueId: issue.id, runId };
}

const used = async () =>
  (await stack.db.selectFrom("usage_counters").select("used").where("user_id", "=", userId).executeTakeFirst())?.used ??
  0;
const run = (id: string) =>
  stack.db.selectFrom("solve_runs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("model provider trouble", () => {
  it("succeeds after a 429 with retry-after, and says so in the step detail", async () => {
    models.control.failNext({ status: 429, retryAfter: 1 });
    const { runId } = await start();
    const got = await readSse(await stack.app.request(`/api/runs/${runId}/events`, { headers }));
    expect(got.at(-1)?.event).toBe("completed");
    const gen = got.find(
      (e) =>
        e.event === "step" &&
        (e.data as { step: string; status: string }).step === "generating" &&
        (e.data as { status: string }).status === "completed",
    );
    expect(JSON.stringify(gen?.data)).toMatch(/Provider retry 1/);
    expect(models.control.requests.length).toBeGreaterThanOrEqual(2);
  });

  it("fails with a clear error and gives the quota back when the provider is down", async () => {
    models.control.failNext({ status: 503, retryAfter: 0, times: 50 });
    const before = await used();
    const { runId, issueId } = await start();
    const got = await readSse(await stack.app.request(`/api/runs/${runId}/events`, { headers }));
    const end = got.at(-1);
    expect(end?.event).toBe("failed");
    const error = (end?.data as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("model.unavailable");
    expect(error.message).toMatch(/Generating Solution/);
    const r = await run(runId);
    expect([r.status, r.quota_state]).toEqual(["failed", "released"]);
    expect(await used()).toBe(before);
    const issue = await stack.db
      .selectFrom("issues")
      .select("status")
      .where("id", "=", issueId)
      .executeTakeFirstOrThrow();
    expect(issue.status).toBe("failed");
  });

  it("cancel mid-generation aborts the model call and releases the quota", async () => {
    models.control.hangNext();
    const before = await used();
    const { runId } = await start();
    const stream = readSse(await stack.app.request(`/api/runs/${runId}/events`, { headers }));
    for (let i = 0; i < 200 && models.control.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(models.control.requests.length).toBe(1);
    const res = await stack.app.request(`/api/runs/${runId}/cancel`, { method: "POST", headers });
    expect(res.status).toBe(200);
    const got = await stream;
    expect(got.at(-1)?.event).toBe("cancelled");
    for (let i = 0; i < 40 && models.control.abortedRequests === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(models.control.abortedRequests).toBe(1);
    const r = await run(runId);
    expect([r.status, r.quota_state]).toEqual(["cancelled", "released"]);
    expect(await used()).toBe(before);
    const again = await stack.app.request(`/api/runs/${runId}/cancel`, { method: "POST", headers });
    expect(again.status).toBe(409);
  });
});
