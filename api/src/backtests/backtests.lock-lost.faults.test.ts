import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { QUEUES, jobIds } from "@fixloop/contract";
import { createTestStack, type TestStack } from "../../test/stack";
import { until } from "../../test/faults.testkit";
import { lapseLock, queueWorkers } from "../../test/lock-lost.testkit";

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
