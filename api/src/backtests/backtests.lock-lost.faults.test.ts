import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { QUEUES, jobIds } from "@fixloop/contract";
import type { StallTimings } from "@fixloop/worker";
import { createTestStack, type SignedIn, type TestStack } from "../../test/stack";
import { until, usedQuota } from "../../test/faults.testkit";
import { RUN_ENDED, TIMED_OUT, backtestFailed, backtestRow, runRow } from "../../test/backtests.testkit";
import { holdEventLoop, lapseLock, queueWorkers } from "../../test/lock-lost.testkit";

/**
 * Two backtest workers, each with a model stand-in of its own, so every model request shows which
 * worker sent it. The first one's lock on a solving backtest's job is taken from it while its model
 * call is in flight and the job goes back to the queue, as BullMQ does with a job whose lock
 * lapsed; the second takes it once the first has stopped, so what the first wrote is seen alone.
 */
let first: ModelSandbox;
let second: ModelSandbox;
let stack: TestStack;
const workers = queueWorkers(() => stack, QUEUES.backtest);
const firstLog: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  first = await startModelSandbox();
  second = await startModelSandbox();
  stack = await createTestStack({ env: second.env, workers: ["sync"], logLevel: "warn" });
}, 60_000);
afterAll(async () => {
  // The stand-ins first: a request still held there would keep its worker from closing.
  await first?.stop();
  await second?.stop();
  await workers.closeAll();
});

const PATH = "/api/github/repositories/octocat/todo-api/backtest";

describe("a worker whose lock on a backtest's job lapsed", () => {
  it("aborts its solve's model call at once and writes nothing more; the new holder completes the backtest once", async () => {
    const me = await stack.signIn("octocat", { scopes: ["public_repo"] });
    const headers = { ...me.headers, "content-type": "application/json" };
    expect((await stack.app.request("/api/github/repositories", { headers })).status).toBe(200);
    first.control.hangNext(1);
    const firstWorker = workers.start({ env: first.env, log: firstLog });
    const started = await stack.app.request(PATH, {
      method: "POST",
      headers,
      body: JSON.stringify({ issues: 1, solve: true }),
    });
    expect(started.status).toBe(202);
    const backtestId = ((await started.json()) as { latest: { id: string } }).latest.id;
    await until("the first worker's model call in flight", async () => first.control.requests.length === 1, 60_000);
    const inFlight = first.control.requests[0];
    if (!inFlight) throw new Error("no model request in flight");
    const firstRun = await stack.db
      .selectFrom("solve_runs")
      .select(["id", "status"])
      .where("user_id", "=", me.user._id)
      .where("kind", "=", "backtest")
      .executeTakeFirstOrThrow();
    expect(firstRun.status).toBe("running");

    // The lock lapses and the job goes back to the queue. The first worker takes no new job from
    // now on (it would take this one again), so what it does after the lapse is seen alone.
    await firstWorker.workers[0]?.pause(true);
    const job = await stack.deps.queues.backtest.getJob(jobIds.backtest(backtestId));
    const handedAt = await lapseLock(stack, QUEUES.backtest, job);

    // The first worker's next lock renewal fails; its model call is aborted well before the lock would be due again.
    await until("the first worker's call aborted", async () => first.control.abortedRequests === 1, 20_000, 50);
    expect(Date.now() - handedAt).toBeLessThan(15_000);
    // Closing waits for the first worker's job to end: whatever it was going to write is written by then.
    await workers.close(firstWorker);
    // It wrote nothing: its solve run is still running with its quota unit reserved, and the
    // backtest is neither failed nor finished; it made no other model request.
    expect(first.control.requests).toHaveLength(1);
    const left = await stack.db
      .selectFrom("solve_runs")
      .select(["status", "error_code", "quota_state", "finished_at"])
      .where("id", "=", firstRun.id)
      .executeTakeFirstOrThrow();
    expect(left).toEqual({ status: "running", error_code: null, quota_state: "reserved", finished_at: null });
    const meanwhile = await stack.db
      .selectFrom("repository_backtests")
      .select(["status", "error", "finished_at"])
      .where("id", "=", backtestId)
      .executeTakeFirstOrThrow();
    expect(meanwhile).toEqual({ status: "running", error: null, finished_at: null });
    expect(firstLog.filter((l) => l.msg === "backtest failed")).toEqual([]);
    expect(firstLog.filter((l) => String(l.msg).startsWith("lost the job's lock"))).toHaveLength(1);

    // The second worker takes the job from the queue and runs the backtest over.
    workers.start({ env: second.env });
    const status = async () =>
      (
        await stack.db
          .selectFrom("repository_backtests")
          .select("status")
          .where("id", "=", backtestId)
          .executeTakeFirst()
      )?.status;
    await until("the backtest done", async () => (await status()) === "done", 90_000);

    // The second worker asked the model again what the first was asked when its lock lapsed.
    expect(
      second.control.requests.filter((r) => r.tool === inFlight.tool && r.prompt === inFlight.prompt),
    ).toHaveLength(1);
    const backtest = await stack.db
      .selectFrom("repository_backtests")
      .selectAll()
      .where("id", "=", backtestId)
      .executeTakeFirstOrThrow();
    expect([backtest.status, backtest.error, backtest.found]).toEqual(["done", null, 1]);
    const issues = backtest.issues as Array<{ solve: { runId: string | null } | null }>;
    expect(issues).toHaveLength(1);
    // The first worker's solve run was left running for the new holder, which ended it (its quota
    // unit given back) before solving the issue again; it was never ended as cancelled by the first.
    const solveRuns = await stack.db
      .selectFrom("solve_runs")
      .select(["id", "status", "error_code", "quota_state"])
      .where("user_id", "=", me.user._id)
      .where("kind", "=", "backtest")
      .orderBy("created_at")
      .execute();
    expect(solveRuns.map((r) => [r.id === firstRun.id, r.status, r.error_code, r.quota_state])).toEqual([
      [true, "failed", "backtest.interrupted", "released"],
      [false, "completed", null, "charged"],
    ]);
    expect(issues[0]?.solve?.runId).toBe(solveRuns[1]?.id);
    // The job completed once, by the second worker.
    const done = await stack.deps.queues.backtest.getJob(jobIds.backtest(backtestId));
    expect(await done?.getState()).toBe("completed");
    expect(done?.returnvalue).toMatchObject({ checked: 1 });
  }, 120_000);
});

/**
 * A solving backtest of one past issue started on a first worker (`stalls` over its lock and stall
 * timings, its log lines to `log`), whose model call is in flight and held there by the stand-in:
 * the solve run running with its quota unit reserved.
 */
async function solvingOne(
  me: SignedIn,
  o: { stalls?: Partial<StallTimings>; log?: Array<Record<string, unknown>> } = {},
) {
  // Workers an earlier test left serving the queue would take the job themselves.
  await workers.closeAll();
  first.control.reset();
  second.control.reset();
  const headers = { ...me.headers, "content-type": "application/json" };
  first.control.hangNext(1);
  const worker = workers.start({ env: first.env, ...o });
  const started = await stack.app.request(PATH, {
    method: "POST",
    headers,
    body: JSON.stringify({ issues: 1, solve: true }),
  });
  expect(started.status).toBe(202);
  const backtestId = ((await started.json()) as { latest: { id: string } }).latest.id;
  await until("the first worker's model call in flight", async () => first.control.requests.length === 1, 60_000);
  const run = await stack.db
    .selectFrom("solve_runs")
    .select(["id", "status", "quota_state"])
    .where("user_id", "=", me.user._id)
    .where("kind", "=", "backtest")
    .where("status", "=", "running")
    .orderBy("created_at", "desc")
    .executeTakeFirstOrThrow();
  expect([run.status, run.quota_state]).toEqual(["running", "reserved"]);
  return { backtestId, runId: run.id, jobId: jobIds.backtest(backtestId), worker };
}

/**
 * A solving backtest of one past issue whose first worker's lock on the job lapsed while its
 * model call was in flight, and which that worker left, stopped: the job is back in the queue,
 * the solve run running with its quota unit reserved.
 */
async function leftMidSolve(me: SignedIn) {
  const { worker: firstWorker, ...left } = await solvingOne(me);
  await firstWorker.workers[0]?.pause(true);
  const job = await stack.deps.queues.backtest.getJob(left.jobId);
  await lapseLock(stack, QUEUES.backtest, job);
  await until("the first worker's call aborted", async () => first.control.abortedRequests === 1, 20_000, 50);
  await workers.close(firstWorker);
  expect(await runRow(stack.db, left.runId)).toMatchObject({ status: "running", quota_state: "reserved" });
  expect(await backtestRow(stack.db, left.backtestId)).toEqual({ status: "running", error: null });
  return left;
}

describe("a solve run a stopped backtest worker left running", () => {
  let me: SignedIn;
  beforeAll(async () => {
    me = await stack.signIn("octocat", { scopes: ["public_repo"] });
    expect((await stack.app.request("/api/github/repositories", { headers: me.headers })).status).toBe(200);
  });

  it("ends with the backtest when the new holder fails before reaching its issue, its quota unit given back", async () => {
    const before = await usedQuota(stack.db, me.user._id);
    const left = await leftMidSolve(me);
    expect(await usedQuota(stack.db, me.user._id)).toBe(before + 1);

    // The new holder cannot list the repository's past pull requests: the backtest fails before any issue.
    stack.github.control.failNext({ path: /^\/repos\/octocat\/todo-api\/pulls$/, status: 403, kind: "restricted" });
    workers.start({ env: second.env });
    await until("the backtest failed", () => backtestFailed(stack.db, left.backtestId), 60_000);

    expect((await backtestRow(stack.db, left.backtestId)).error).toMatch(/^The backtest failed: /);
    expect(await runRow(stack.db, left.runId)).toEqual(RUN_ENDED);
    // The period counts what the backtest finished: nothing.
    expect(await usedQuota(stack.db, me.user._id)).toBe(before);
    expect(second.control.requests).toEqual([]);
  });

  it("ends with the backtest ended as not finishing in time, its quota unit given back once", async () => {
    const before = await usedQuota(stack.db, me.user._id);
    const left = await leftMidSolve(me);
    // No worker takes the job again; four hours on, asking for a new backtest ends this one.
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

    // A worker then takes the ended backtest's job: it leaves it ended and gives nothing back again.
    const newId = ((await again.json()) as { latest: { id: string } }).latest.id;
    workers.start({ env: second.env });
    await until("the new backtest done", async () => (await backtestRow(stack.db, newId)).status === "done", 90_000);
    const job = await stack.deps.queues.backtest.getJob(left.jobId);
    await until("the ended backtest's job settled", async () => (await job?.getState()) === "completed", 30_000);
    expect(await runRow(stack.db, left.runId)).toEqual(RUN_ENDED);
    expect(await usedQuota(stack.db, me.user._id)).toBe(before);
    expect(second.control.requests).toEqual([]);
  });

  it("ends with the backtest whose job BullMQ gave up after it stalled too often", async () => {
    const before = await usedQuota(stack.db, me.user._id);
    // A worker whose job BullMQ gives up at its first stall, checking for stalls every second.
    const log: Array<Record<string, unknown>> = [];
    const lockDuration = 5_000;
    const left = await solvingOne(me, { log, stalls: { lockDuration, stalledInterval: 1_000, maxStalledCount: 0 } });
    const stalled: string[] = [];
    left.worker.workers[0]?.on("stalled", (jobId) => stalled.push(jobId));
    expect(await usedQuota(stack.db, me.user._id)).toBe(before + 1);

    // The worker's process does nothing for longer than its lock lasts: the lock lapses with the job
    // still active. BullMQ's stall check then finds it stalled once too often and gives it up: the
    // next worker to take it (this one) fails it without running it.
    holdEventLoop(lockDuration + 1_000);
    await until("the backtest failed", () => backtestFailed(stack.db, left.backtestId), 30_000);
    // Back from the hold, the worker could not renew its lock and aborted its own model call.
    await until("the worker's call aborted", async () => first.control.abortedRequests === 1, 20_000, 50);
    // Closing waits for the worker's job to end: whatever it was going to write is written by then.
    await workers.close(left.worker);

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
    // The given-up job was not run again.
    expect(first.control.requests).toHaveLength(1);
    expect(second.control.requests).toEqual([]);
  }, 60_000);
});
