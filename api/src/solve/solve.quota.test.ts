import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { currentUsagePeriod } from "@fixloop/db";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { createTestStack, type TestStack } from "../../test/stack";
import { insertIssue } from "@fixloop/testkit";
import { createTestApp, errorOf, type TestClient } from "../../test/testing";

let models: ModelSandbox;
let stack: TestStack;

beforeAll(async () => {
  models = await startModelSandbox();
  // No workers: runs stay queued, which is all the admission checks need.
  stack = await createTestStack({ env: models.env, workers: false, logLevel: "warn" });
});
afterAll(async () => {
  await models?.stop();
});

async function user(login: string) {
  const me = await stack.signIn(login);
  return { id: me.user._id, headers: { ...me.headers, "content-type": "application/json" } };
}

type GenerateBody = Parameters<TestClient["ai"]["generate-solution"]["$post"]>[0]["json"];
/** A solve request; the body may be one the route refuses (the cases below send some). */
const post = (headers: Record<string, string>, body: { issueId?: string; modelId?: string }) =>
  stack.client(headers).ai["generate-solution"].$post({
    query: {},
    json: body as GenerateBody,
  });

describe("generate-solution admission", () => {
  it("accepts exactly one of 50 concurrent requests from a FREE user with 9 of 10 used", async () => {
    const u = await user("monalisa");
    const issues = await Promise.all(
      Array.from({ length: 50 }, (_, i) => insertIssue(stack.db, u.id, { number: 100 + i })),
    );
    const { periodStart } = await currentUsagePeriod(stack.db, u.id);
    await stack.db.insertInto("usage_counters").values({ user_id: u.id, period_start: periodStart, used: 9 }).execute();
    const answers = await Promise.all(issues.map((i) => post(u.headers, { issueId: i.id })));
    // The client types only the route's own answers (200, 202); refusals come from the error handler.
    const statuses: number[] = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(49);
    const refused = answers.find((_, i) => statuses[i] === 429);
    if (!refused) throw new Error("no request was refused");
    expect(await errorOf(refused)).toEqual({ code: "usage.limit_exceeded", message: "Usage limit exceeded" });
    const counter = await stack.db
      .selectFrom("usage_counters")
      .select("used")
      .where("user_id", "=", u.id)
      .executeTakeFirstOrThrow();
    expect(counter.used).toBe(10);
    const runs = await stack.db.selectFrom("solve_runs").select(["quota_state"]).where("user_id", "=", u.id).execute();
    expect(runs).toEqual([{ quota_state: "reserved" }]);
  });

  it("checks ownership, closed state, model and plan in that order", async () => {
    const u = await user("octocat");
    const other = await user("hubot");
    const open = await insertIssue(stack.db, u.id, { number: 1 });
    const closed = await insertIssue(stack.db, u.id, { number: 2 });
    await stack.db
      .updateTable("issues")
      .set({ status: "closed", state: "closed" })
      .where("id", "=", closed.id)
      .execute();
    const cases: [Record<string, string>, { issueId?: string; modelId?: string }, number, string][] = [
      [other.headers, { issueId: open.id, modelId: "nope" }, 404, "issue.not_found"],
      [u.headers, { issueId: "not-a-uuid" }, 404, "issue.not_found"],
      [u.headers, { issueId: closed.id, modelId: "nope" }, 409, "issue.closed"],
      [u.headers, { issueId: open.id, modelId: "nope" }, 400, "model.unknown"],
      [u.headers, { issueId: open.id, modelId: "gpt-4.1" }, 403, "plan.model_not_allowed"],
      [u.headers, { modelId: "gpt-4.1" }, 400, "request.invalid"],
    ];
    for (const [headers, body, status, code] of cases) {
      const res = await post(headers, body);
      const error = await errorOf(res);
      expect([res.status, error.code]).toEqual([status, code]);
      if (code === "plan.model_not_allowed") expect(error.message).toBe("Premium subscription required");
    }
    expect(await stack.db.selectFrom("solve_runs").select("id").where("user_id", "=", u.id).execute()).toEqual([]);
    await stack.db.insertInto("subscriptions").values({ user_id: u.id, plan: "PRO" }).execute();
    const pro = await post(u.headers, { issueId: open.id, modelId: "gpt-4.1" });
    expect(pro.status).toBe(202);
  });

  it("lists the configured models with what the caller's plan allows", async () => {
    const u = await user("monalisa");
    const res = await stack.client(u.headers).ai.models.$get();
    const body = await res.json();
    expect(body.defaultModelId).toBe("llama-3.3-70b-versatile");
    expect(body.allModels.find((m) => m.id === "llama-3.3-70b-versatile")?.allowed).toBe(true);
    expect(body.allModels.filter((m) => m.provider === "anthropic").every((m) => !m.allowed)).toBe(true);
    expect(body.allModels.some((m) => m.provider === "openai")).toBe(true);
  });
});

describe("generate-solution when the job queue refuses the job", () => {
  it("fails the run as queue.unavailable and gives its quota unit back", async () => {
    const t = await createTestApp(models.env);
    const me = await t.loginAs();
    const issue = await insertIssue(t.db, me.user.id, { number: 7 });
    await t.deps.queues.solve.close();
    const res = await t.client(me.headers).ai["generate-solution"].$post({ query: {}, json: { issueId: issue.id } });
    expect(res.status).toBeGreaterThanOrEqual(500);
    const runs = await t.db.selectFrom("solve_runs").select(["status", "error_code", "quota_state"]).execute();
    expect(runs).toEqual([{ status: "failed", error_code: "queue.unavailable", quota_state: "released" }]);
    const counter = await t.db.selectFrom("usage_counters").select("used").executeTakeFirstOrThrow();
    expect(counter.used).toBe(0);
  });
});
