import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobIds } from "@fixloop/contract";
import { currentUsagePeriod } from "@fixloop/db";
import { startWorkers, type RunningWorkers } from "@fixloop/worker";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { eventually } from "@fixloop/testkit";
import { createTestStack, type TestStack } from "../../test/stack";
import { usedQuota } from "../../test/faults.testkit";
import { TODO_REMOVE_FIX } from "../../test/backtests.testkit";

let stack: TestStack;
let models: ModelSandbox;
let backtestWorker: RunningWorkers | undefined;

beforeAll(async () => {
  models = await startModelSandbox();
  // No backtest worker at first: a started backtest stays queued until the test starts one.
  stack = await createTestStack({ workers: ["sync"], env: models.env });
}, 60_000);
afterAll(async () => {
  await backtestWorker?.close();
  await models?.stop();
});

async function owner(login: string) {
  const me = await stack.signIn(login, { scopes: ["public_repo"] });
  const headers = { ...me.headers, "content-type": "application/json" };
  expect((await stack.app.request("/api/github/repositories", { headers })).status).toBe(200);
  return headers;
}

const PATH = "/api/github/repositories/octocat/url-shortener/backtest";
const start = (headers: Record<string, string>, body: unknown, path = PATH) =>
  stack.app.request(path, { method: "POST", headers, body: JSON.stringify(body) });
const read = async (headers: Record<string, string>, path = PATH) => {
  const res = await stack.app.request(path, { headers });
  expect(res.status).toBe(200);
  return (await res.json()) as { card: any; latest: any };
};

const until = (headers: Record<string, string>, done: (v: { card: any; latest: any }) => boolean, path = PATH) =>
  eventually(
    async () => {
      const got = await read(headers, path);
      return done(got) ? got : false;
    },
    { what: `the backtest of ${path}`, timeout: 60_000, interval: 100 },
  );

describe("repository backtest", () => {
  it("localizes the seeded past fixes at their base commits and keeps the counts as the trust card; one at a time", async () => {
    const me = await owner("octocat");
    expect(await read(me)).toEqual({ card: null, latest: null });

    const first = await start(me, { issues: 10 });
    expect(first.status).toBe(202);
    const queued = (await first.json()) as { latest: { id: string; status: string; requested: number } };
    expect(queued.latest).toMatchObject({ status: "queued", requested: 10 });
    const again = await start(me, {});
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      error: {
        code: "backtest.running",
        message: "A backtest of this repository is already running; wait for it to finish",
      },
    });

    // Two starts at once: the database lets one through.
    const weather = "/api/github/repositories/octocat/weather-cli/backtest";
    const both = await Promise.all([start(me, { issues: 3 }, weather), start(me, { issues: 3 }, weather)]);
    expect(both.map((r) => r.status).sort()).toEqual([202, 409]);

    backtestWorker = startWorkers(stack.ctx, { queues: ["backtest", "solve"], concurrency: 1 });
    let got = await until(me, (v) => v.latest?.status === "done" || v.latest?.status === "failed");
    expect(got.latest.error).toBeNull();
    expect(got.card).toMatchObject({ id: queued.latest.id, status: "done", found: 3, checked: 3 });
    const summary = got.card.issues.map((i: any) => ({
      issue: i.issueNumber,
      pull: i.pullNumber,
      fixFiles: i.fixFiles,
      testFiles: i.testFiles,
      rank: i.rank,
    }));
    // Newest merge first; the unmerged attempt at #5 (#8) is passed over, tests are not fixing files.
    expect(summary).toEqual([
      { issue: 6, pull: 10, fixFiles: [".github/workflows/ci.yml"], testFiles: [], rank: null },
      { issue: 5, pull: 9, fixFiles: ["shortener/handler.go"], testFiles: [], rank: 1 },
      {
        issue: 1,
        pull: 7,
        fixFiles: ["shortener/handler.go", "shortener/store.go"],
        testFiles: ["shortener/store_test.go"],
        rank: 1,
      },
    ]);
    expect(got.card).toMatchObject({ foundAt1: 2, foundAt5: 2 });
    // A repository without merged fixes of its closed issues: measured, nothing to count.
    const none = await until(me, (v) => v.latest?.status === "done", weather);
    expect(none.card).toMatchObject({ requested: 3, found: 0, checked: 0, foundAt5: 0, issues: [] });
    expect(got.card.issues.every((i: any) => /^[0-9a-f]{40}$/.test(i.baseSha) && i.ranked.length > 0)).toBe(true);

    // Finished: the repository may be backtested again. GitHub failing ends that one as failed,
    // with the reason, and the card stays the last finished measurement.
    stack.github.control.failNext({ path: /url-shortener\/pulls$/, status: 500, kind: "primary", times: 20 });
    expect((await start(me, { issues: 1 })).status).toBe(202);
    got = await until(me, (v) => v.latest?.status === "failed");
    expect(got.latest.error).toBe("The backtest failed: GitHub is unavailable, try again shortly");
    expect(got.card.id).toBe(queued.latest.id);
  }, 120_000);

  it("refuses a bad count, and another user's repository is not found", async () => {
    const me = await owner("octocat");
    for (const issues of [0, 21, 2.5, "10"]) expect((await start(me, { issues })).status).toBe(400);
    const hubot = await owner("hubot");
    const res = await start(hubot, { issues: 3 });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("repository.not_found");
    expect((await stack.app.request(PATH, { headers: hubot })).status).toBe(404);
  });

  const TODO = "/api/github/repositories/octocat/todo-api/backtest";
  const ledgerUsd = async (runId: string) =>
    Number(
      (
        await stack.db
          .selectFrom("model_requests")
          .select((eb) => eb.fn.coalesce(eb.fn.sum<string>("cost_usd"), eb.val("0")).as("usd"))
          .where("run_id", "=", runId)
          .executeTakeFirstOrThrow()
      ).usd,
    );

  it("solves each past issue on request and checks it against its pull request's own tests, at its ledger cost", async () => {
    const me = await owner("octocat");
    // The model answers #1 with its pull request's fix; #2 gets the stand-in's unrelated change.
    models.control.respondWith((p) => p.includes("Add DELETE /todos/:id"), TODO_REMOVE_FIX);
    const pullsBefore = stack.github.control.listPulls("octocat", "todo-api").length;
    const res = await start(me, { issues: 2, solve: true }, TODO);
    expect(res.status).toBe(202);
    backtestWorker ??= startWorkers(stack.ctx, { queues: ["backtest", "solve"], concurrency: 1 });
    const got = await until(me, (v) => v.latest?.status === "done" || v.latest?.status === "failed", TODO);
    expect(got.latest.error).toBeNull();
    expect(got.card).toMatchObject({ solve: true, found: 2, solved: 2, solvesVerified: 1 });
    const [second, first] = got.card.issues;
    expect(first).toMatchObject({ issueNumber: 1, testFiles: ["test/store.test.js"] });
    expect(first.solve).toMatchObject({ verified: true, reason: null });
    expect(first.solve.detail).toContain('"updates and removes a todo"');
    expect(second).toMatchObject({ issueNumber: 2, testFiles: ["test/validate.test.js"] });
    expect(second.solve).toMatchObject({ verified: false, reason: "still_failing" });
    expect(second.solve.detail).toBe('Still failing with the solve\'s patch: "rejects a missing title"');
    // Each solve's cost is its run's ledger; the card's total is theirs.
    const costs = [await ledgerUsd(first.solve.runId), await ledgerUsd(second.solve.runId)];
    expect(costs.every((c) => c > 0)).toBe(true);
    expect([first.solve.costUsd, second.solve.costUsd]).toEqual(costs);
    expect(got.card.solveCostUsd).toBeCloseTo(costs[0]! + costs[1]!, 6);
    // A solve is the pipeline's steps 4 and 5: step 4 asks the reproduction test, then the answer; step 5 scores on it.
    const asked = await stack.db
      .selectFrom("model_requests")
      .select(["step", "purpose"])
      .where("run_id", "=", first.solve.runId)
      .orderBy("created_at")
      .execute();
    expect(asked.map((r) => `${r.step}: ${r.purpose}`)).toEqual([
      "generating: reproduction test",
      "generating: answer",
    ]);
    // Runs of their own kind: no solution, no pull request, the past issues stay closed as they were.
    const runs = await stack.db
      .selectFrom("solve_runs")
      .innerJoin("issues", "issues.id", "solve_runs.issue_id")
      .select([
        "solve_runs.kind",
        "solve_runs.status",
        "solve_runs.solution_id",
        "solve_runs.quota_state",
        "issues.status as issue",
      ])
      .where("solve_runs.id", "in", [first.solve.runId, second.solve.runId])
      .execute();
    expect(runs).toEqual([
      { kind: "backtest", status: "completed", solution_id: null, quota_state: "charged", issue: "closed" },
      { kind: "backtest", status: "completed", solution_id: null, quota_state: "charged", issue: "closed" },
    ]);
    expect(stack.github.control.listPulls("octocat", "todo-api")).toHaveLength(pullsBefore);
    // Each ran as any run, in its own job on the solve queue, from steps 1–3 as localized at its base commit.
    for (const entry of [first, second]) {
      const job = await stack.deps.queues.solve.getJob(jobIds.solve(entry.solve.runId));
      expect(await job?.getState()).toBe("completed");
      const stored = await stack.db
        .selectFrom("run_steps")
        .select(["step", "status", "detail"])
        .where("run_id", "=", entry.solve.runId)
        .orderBy("started_at")
        .orderBy("step")
        .execute();
      expect(Object.fromEntries(stored.map((r) => [r.step, r.status]))).toEqual({
        analyzing: "completed",
        context: "completed",
        dependencies: "completed",
        generating: "completed",
        validating: "completed",
      });
      const localized = stored.find((r) => r.step === "context")?.detail as { info: string[] };
      expect(localized.info).toContain(`Localized at the pull request's base commit ${entry.baseSha.slice(0, 7)}`);
    }
  }, 120_000);

  it("refuses solves the quota or the caps leave no room for, writing nothing; bad options are refused", async () => {
    const me = await owner("octocat");
    const before = await read(me, TODO);
    const refused = async (body: unknown, status: number, code: string) => {
      const res = await start(me, body, TODO);
      expect(res.status).toBe(status);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
    };
    await refused({ issues: 2, solve: "yes" }, 400, "request.invalid");
    await refused({ issues: 2, solve: true, modelId: "no-such-model" }, 400, "model.unknown");
    const caps = (body: unknown) =>
      stack.app.request("/api/costs/caps", { method: "PUT", headers: me, body: JSON.stringify(body) });
    expect((await caps({ runCapUsd: null, monthlyCapUsd: 0 })).status).toBe(200);
    await refused({ issues: 2, solve: true }, 409, "backtest.monthly_cap_reached");
    expect((await caps({ runCapUsd: 0, monthlyCapUsd: null })).status).toBe(200);
    await refused({ issues: 2, solve: true }, 409, "backtest.run_cap_too_low");
    expect((await caps({ runCapUsd: null, monthlyCapUsd: null })).status).toBe(200);
    // The plan's runs for the period used up (the free plan has 10).
    const { id } = await stack.db
      .selectFrom("users")
      .select("id")
      .where("username", "=", "octocat")
      .executeTakeFirstOrThrow();
    const { periodStart } = await currentUsagePeriod(stack.db, id);
    await stack.db
      .insertInto("usage_counters")
      .values({ user_id: id, period_start: periodStart, used: 10 })
      .onConflict((oc) => oc.columns(["user_id", "period_start"]).doUpdateSet({ used: 10 }))
      .execute();
    await refused({ issues: 2, solve: true }, 429, "backtest.quota_exhausted");
    expect(await read(me, TODO)).toEqual(before);

    // One run left: the first solve takes it, the next issue says why it was not solved.
    await stack.db.updateTable("usage_counters").set({ used: 9 }).where("user_id", "=", id).execute();
    expect((await start(me, { issues: 2, solve: true }, TODO)).status).toBe(202);
    backtestWorker ??= startWorkers(stack.ctx, { queues: ["backtest", "solve"], concurrency: 1 });
    const got = await until(me, (v) => v.latest?.status === "done" && v.latest.id !== before.latest.id, TODO);
    expect(got.card).toMatchObject({ solve: true, found: 2, solved: 1 });
    expect(got.card.issues.map((i: any) => [i.issueNumber, i.solve.reason, i.solve.runId === null])).toEqual([
      [2, "still_failing", false],
      [1, "not_solved", true],
    ]);
    expect(got.card.issues[1].solve).toMatchObject({
      detail: "Not solved: your plan's quota for this period is used up",
      costUsd: 0,
    });
    expect(await usedQuota(stack.db, id)).toBe(10);
  }, 60_000);
});
