import { describe, expect, it } from "vitest";
import { eventually, insertIssue } from "@fixloop/testkit";
import { readSse } from "../../test/sse.testkit";
import { solveKit } from "../../test/solve.testkit";

const t = solveKit();

let n = 10;

async function start() {
  const issue = await insertIssue(t.stack.db, t.userId, { number: n++ });
  const res = await t.generate({ issueId: issue.id });
  const { runId } = await res.json();
  return { issueId: issue.id, runId };
}

const used = async () =>
  (await t.stack.db.selectFrom("usage_counters").select("used").where("user_id", "=", t.userId).executeTakeFirst())
    ?.used ?? 0;
const run = (id: string) =>
  t.stack.db.selectFrom("solve_runs").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("model provider trouble", () => {
  it("succeeds after a 429 with retry-after, and says so in the step detail", async () => {
    t.models.control.failNext({ status: 429, retryAfter: 1 });
    const { runId } = await start();
    const got = await readSse(await t.events(runId));
    expect(got.at(-1)?.event).toBe("completed");
    const gen = got.find(
      (e) =>
        e.event === "step" &&
        (e.data as { step: string; status: string }).step === "generating" &&
        (e.data as { status: string }).status === "completed",
    );
    expect(JSON.stringify(gen?.data)).toMatch(/Provider retry 1/);
    expect(t.models.control.requests.length).toBeGreaterThanOrEqual(2);
  });

  it("fails with a clear error and gives the quota back when the provider is down", async () => {
    t.models.control.failNext({ status: 503, retryAfter: 0, times: 50 });
    const before = await used();
    const { runId, issueId } = await start();
    const got = await readSse(await t.events(runId));
    const end = got.at(-1);
    expect(end?.event).toBe("failed");
    const error = (end?.data as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("model.unavailable");
    expect(error.message).toMatch(/Generating Solution/);
    const r = await run(runId);
    expect([r.status, r.quota_state]).toEqual(["failed", "released"]);
    expect(await used()).toBe(before);
    const issue = await t.stack.db
      .selectFrom("issues")
      .select("status")
      .where("id", "=", issueId)
      .executeTakeFirstOrThrow();
    expect(issue.status).toBe("failed");
  });

  it("cancel mid-generation aborts the model call and releases the quota", async () => {
    t.models.control.hangNext();
    const before = await used();
    const { runId } = await start();
    const stream = readSse(await t.events(runId));
    await eventually(() => t.models.control.requests.length > 0, { what: "the model request", timeout: 10_000 });
    expect(t.models.control.requests.length).toBe(1);
    const res = await t.stack.app.request(`/api/runs/${runId}/cancel`, { method: "POST", headers: t.headers });
    expect(res.status).toBe(200);
    const got = await stream;
    expect(got.at(-1)?.event).toBe("cancelled");
    await eventually(() => expect(t.models.control.abortedRequests).toBe(1), { timeout: 2_000 });
    const r = await run(runId);
    expect([r.status, r.quota_state]).toEqual(["cancelled", "released"]);
    expect(await used()).toBe(before);
    const again = await t.stack.app.request(`/api/runs/${runId}/cancel`, { method: "POST", headers: t.headers });
    expect(again.status).toBe(409);
  });
});
