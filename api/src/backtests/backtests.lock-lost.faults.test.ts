import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { QUEUES, jobIds } from "@fixloop/contract";
import type { StallTimings } from "@fixloop/worker";
import { createTestStack, type SignedIn, type TestStack } from "../../test/stack";
import { until, usedQuota } from "../../test/faults.testkit";
import { RUN_ENDED, TIMED_OUT, backtestFailed, backtestRow, runRow } from "../../test/backtests.testkit";
import { holdEventLoop, lapseLock, queueWorkers } from "../../test/lock-lost.testkit";

/**
 * Backtest workers and solve workers started apart, so a backtest can be left waiting for its solve
 * run with no worker solving it yet, and each model request shows which solve worker sent it (each
 * has a model stand-in of its own). A first backtest worker's lock on the job is taken from it while
 * it waits for its solve run, and the job goes back to the queue, as BullMQ does with a job whose
 * lock lapsed; the next worker takes it once the first has stopped, so what the first wrote is seen alone.
 */
let first: ModelSandbox;
let second: ModelSandbox;
let stack: TestStack;
const backtestWorkers = queueWorkers(() => stack, QUEUES.backtest);
const solveWorkers = queueWorkers(() => stack, QUEUES.solve);

beforeAll(async () => {
  first = await startModelSandbox();
  second = await startModelSandbox();
  stack = await createTestStack({ env: second.env, workers: ["sync"], logLevel: "warn" });
}, 60_000);
afterAll(async () => {
  // The stand-ins first: a request still held there would keep its worker from closing.
  await first?.stop();
  await second?.stop();
  await backtestWorkers.closeAll();
  await solveWorkers.closeAll();
});

const PATH = "/api/github/repositories/octocat/todo-api/backtest";

/** The user's backtest solve runs, oldest first. */
const backtestRuns = (me: SignedIn) =>
  stack.db
    .selectFrom("solve_runs")
    .select(["id", "status", "error_code", "quota_state", "claim_token"])
    .where("user_id", "=", me.user._id)
    .where("kind", "=", "backtest")
    .orderBy("created_at")
    .execute();

/**
 * A solving backtest of one past issue started on a first backtest worker (`stalls` over its lock
 * and stall timings, its log lines to `log`), waiting for its solve run: the run queued with its
 * quota unit reserved and steps 1–3 stored, its job on the solve queue, which no worker serves yet.
 */
async function waitingForItsSolve(
  me: SignedIn,
  o: { stalls?: Partial<StallTimings>; log?: Array<Record<string, unknown>> } = {},
) {
  // Workers an earlier test left serving the queues would take the jobs themselves.
  await backtestWorkers.closeAll();
  await solveWorkers.closeAll();
  first.control.reset();
  second.control.reset();
  const headers = { ...me.headers, "content-type": "application/json" };
  const worker = backtestWorkers.start(o);
  const started = await stack.app.request(PATH, {
    method: "POST",
    headers,
    body: JSON.stringify({ issues: 1, solve: true }),
  });
  expect(started.status).toBe(202);
  const backtestId = ((await started.json()) as { latest: { id: string } }).latest.id;
  let runId = "";
  await until(
    "the backtest's solve run queued",
    async () => {
      const run = (await backtestRuns(me)).find((r) => r.status === "queued");
      if (!run) return false;
      runId = run.id;
      return (await stack.deps.queues.solve.getJob(jobIds.solve(runId))) !== undefined;
    },
    60_000,
    50,
  );
  const steps = await stack.db.selectFrom("run_steps").select("step").where("run_id", "=", runId).execute();
  expect(steps.map((s) => s.step).sort()).toEqual(["analyzing", "context", "dependencies"]);
  expect(await runRow(stack.db, runId)).toMatchObject({ status: "queued", quota_state: "reserved" });
  return { backtestId, runId, jobId: jobIds.backtest(backtestId), worker };
}

/**
 * A solving backtest of one past issue whose first worker's lock on the job lapsed while it waited
 * for its solve run, and which that worker left, stopped: the job is back in the queue, the solve
 * run still queued with its quota unit reserved.
 */
async function leftWaiting(me: SignedIn, log: Array<Record<string, unknown>> = []) {
  const { worker: firstWorker, ...left } = await waitingForItsSolve(me, { log });
  // The first worker takes no new job from now on (it would take this one again).
  await firstWorker.workers[0]?.pause(true);
  const job = await stack.deps.queues.backtest.getJob(left.jobId);
  const handedAt = await lapseLock(stack, QUEUES.backtest, job);
  // Its next lock renewal fails: it stops waiting, well before the lock would be due again.
  await until(
    "the first worker to notice",
    async () => log.some((l) => String(l.msg).startsWith("lost the job's lock")),
    20_000,
    50,
  );
  expect(Date.now() - handedAt).toBeLessThan(15_000);
  // Closing waits for the first worker's job to end: whatever it was going to write is written by then.
  await backtestWorkers.close(firstWorker);
  expect(await runRow(stack.db, left.runId)).toMatchObject({ status: "queued", quota_state: "reserved" });
  expect(await backtestRow(stack.db, left.backtestId)).toEqual({ status: "running", error: null });
  return left;
}

describe("a worker whose lock on a backtest's job lapsed", () => {
  it("stops waiting and writes nothing more; its solve run goes on, its issue's standing aside, and the new holder waits for that same run", async () => {
    const me = await stack.signIn("octocat", { scopes: ["public_repo"] });
    const headers = { ...me.headers, "content-type": "application/json" };
    expect((await stack.app.request("/api/github/repositories", { headers })).status).toBe(200);
    const before = await usedQuota(stack.db, me.user._id);
    const firstLog: Array<Record<string, unknown>> = [];
    const left = await leftWaiting(me, firstLog);
    expect(firstLog.filter((l) => l.msg === "backtest failed")).toEqual([]);
    expect(firstLog.filter((l) => String(l.msg).startsWith("lost the job's lock"))).toHaveLength(1);
    expect(await usedQuota(stack.db, me.user._id)).toBe(before + 1);

    // GitHub no longer has the past issue: that would stop a user's run, not a backtest's, which
    // follows its backtest (the run is still solved and charged below).
    const { issue_id } = await stack.db
      .selectFrom("solve_runs")
      .select("issue_id")
      .where("id", "=", left.runId)
      .executeTakeFirstOrThrow();
    await stack.db.updateTable("issues").set({ gone: "deleted" }).where("id", "=", issue_id).execute();
    // A second worker takes the backtest over and a solve worker takes the run: the backtest
    // starts over, finds the issue's run under way and waits for it rather than paying again.
    backtestWorkers.start();
    solveWorkers.start({ env: second.env });
    const status = async () => (await backtestRow(stack.db, left.backtestId)).status;
    await until("the backtest done", async () => (await status()) === "done", 90_000);

    const backtest = await stack.db
      .selectFrom("repository_backtests")
      .selectAll()
      .where("id", "=", left.backtestId)
      .executeTakeFirstOrThrow();
    expect([backtest.status, backtest.error, backtest.found]).toEqual(["done", null, 1]);
    const issues = backtest.issues as Array<{ solve: { runId: string | null } | null }>;
    expect(issues).toHaveLength(1);
    expect(issues[0]?.solve?.runId).toBe(left.runId);
    // One run, solved once and charged once; each model request asked once.
    expect((await backtestRuns(me)).map((r) => [r.id, r.status, r.error_code, r.quota_state])).toEqual([
      [left.runId, "completed", null, "charged"],
    ]);
    expect(await usedQuota(stack.db, me.user._id)).toBe(before + 1);
    const asked = second.control.requests.map((r) => `${r.tool} ${r.prompt}`);
    expect(asked.length).toBeGreaterThan(0);
    expect(new Set(asked).size).toBe(asked.length);
    expect(first.control.requests).toEqual([]);
    // The backtest's job completed once, by the second worker.
    const done = await stack.deps.queues.backtest.getJob(left.jobId);
    expect(await done?.getState()).toBe("completed");
    expect(done?.returnvalue).toMatchObject({ checked: 1 });
  }, 120_000);
});

describe("a solve run a stopped backtest worker left going", () => {
  let me: SignedIn;
  beforeAll(async () => {
    me = await stack.signIn("octocat", { scopes: ["public_repo"] });
    expect((await stack.app.request("/api/github/repositories", { headers: me.headers })).status).toBe(200);
  });

  it("ends with the backtest when the new holder fails before reaching its issue, its quota unit given back", async () => {
    const before = await usedQuota(stack.db, me.user._id);
    const left = await leftWaiting(me);
    expect(await usedQuota(stack.db, me.user._id)).toBe(before + 1);

    // The new holder cannot list the repository's past pull requests: the backtest fails before any issue.
    stack.github.control.failNext({ path: /^\/repos\/octocat\/todo-api\/pulls$/, status: 403, kind: "restricted" });
    backtestWorkers.start();
    await until("the backtest failed", () => backtestFailed(stack.db, left.backtestId), 60_000);

    expect((await backtestRow(stack.db, left.backtestId)).error).toMatch(/^The backtest failed: /);
    expect(await runRow(stack.db, left.runId)).toEqual(RUN_ENDED);
    // The period counts what the backtest finished: nothing.
    expect(await usedQuota(stack.db, me.user._id)).toBe(before);
    // A solve worker taking the run's job afterwards leaves it ended, asking nothing.
    solveWorkers.start({ env: second.env });
    const job = await stack.deps.queues.solve.getJob(jobIds.solve(left.runId));
    await until("the ended run's job settled", async () => (await job?.getState()) === "completed", 30_000);
    expect(await runRow(stack.db, left.runId)).toEqual(RUN_ENDED);
    expect(await usedQuota(stack.db, me.user._id)).toBe(before);
    expect(second.control.requests).toEqual([]);
  });

  it("ends with the backtest ended as not finishing in time, and the worker solving it stops at once", async () => {
    const before = await usedQuota(stack.db, me.user._id);
    const left = await leftWaiting(me);
    // A solve worker takes the run; its model call is held in flight.
    first.control.hangNext(1);
    const solver = solveWorkers.start({ env: first.env });
    await until("the solve's model call in flight", async () => first.control.requests.length === 1, 60_000);
    expect(await runRow(stack.db, left.runId)).toMatchObject({ status: "running", quota_state: "reserved" });

    // No worker takes the backtest's job again; four hours on, asking for a new backtest ends this one.
    await stack.db
      .updateTable("repository_backtests")
      .set({ started_at: new Date(Date.now() - 5 * 60 * 60_000) })
      .where("id", "=", left.backtestId)
      .execute();
    const headers = { ...me.headers, "content-type": "application/json" };
    const again = await stack.app.request(PATH, { method: "POST", headers, body: JSON.stringify({ issues: 1 }) });
    expect(again.status).toBe(202);
    expect(await backtestRow(stack.db, left.backtestId)).toEqual(TIMED_OUT);
    expect(await runRow(stack.db, left.runId)).toEqual(RUN_ENDED);
    expect(await usedQuota(stack.db, me.user._id)).toBe(before);
    // The run's worker reads its cancel flag and aborts its model call, spending nothing more; the run keeps its end.
    await until("the solve's call aborted", async () => first.control.abortedRequests === 1, 10_000, 50);
    await solveWorkers.close(solver);
    expect(first.control.requests).toHaveLength(1);
    expect(await runRow(stack.db, left.runId)).toEqual(RUN_ENDED);

    // A worker then takes the ended backtest's job: it leaves it ended and gives nothing back again.
    const newId = ((await again.json()) as { latest: { id: string } }).latest.id;
    backtestWorkers.start();
    await until("the new backtest done", async () => (await backtestRow(stack.db, newId)).status === "done", 90_000);
    const job = await stack.deps.queues.backtest.getJob(left.jobId);
    await until("the ended backtest's job settled", async () => (await job?.getState()) === "completed", 30_000);
    expect(await runRow(stack.db, left.runId)).toEqual(RUN_ENDED);
    expect(await usedQuota(stack.db, me.user._id)).toBe(before);
  });

  it("ends with the backtest whose job BullMQ gave up after it stalled too often", async () => {
    const before = await usedQuota(stack.db, me.user._id);
    // A worker whose job BullMQ gives up at its first stall, checking for stalls every second.
    const log: Array<Record<string, unknown>> = [];
    const lockDuration = 5_000;
    const left = await waitingForItsSolve(me, {
      log,
      stalls: { lockDuration, stalledInterval: 1_000, maxStalledCount: 0 },
    });
    const stalled: string[] = [];
    left.worker.workers[0]?.on("stalled", (jobId) => stalled.push(jobId));
    expect(await usedQuota(stack.db, me.user._id)).toBe(before + 1);

    // The worker's process does nothing for longer than its lock lasts: the lock lapses with the job
    // still active. BullMQ's stall check then finds it stalled once too often and gives it up: the
    // next worker to take it (this one) fails it without running it.
    holdEventLoop(lockDuration + 1_000);
    await until("the backtest failed", () => backtestFailed(stack.db, left.backtestId), 30_000);
    // Closing waits for the worker's job to end: whatever it was going to write is written by then.
    await backtestWorkers.close(left.worker);

    expect(stalled).toEqual([left.jobId]);
    const job = await stack.deps.queues.backtest.getJob(left.jobId);
    expect([await job?.getState(), job?.failedReason]).toEqual(["failed", "job stalled more than allowable limit"]);
    expect(log.filter((l) => l.msg === "job failed").map((l) => l.err)).toEqual([
      "job stalled more than allowable limit",
    ]);
    expect(await backtestRow(stack.db, left.backtestId)).toEqual({
      status: "failed",
      error: "The backtest stopped: the workers running it stopped too often",
    });
    expect(await runRow(stack.db, left.runId)).toEqual(RUN_ENDED);
    // Its quota unit given back once: the period counts what the backtest finished, nothing.
    expect(await usedQuota(stack.db, me.user._id)).toBe(before);
    expect(first.control.requests).toEqual([]);
    expect(second.control.requests).toEqual([]);
  }, 60_000);
});
