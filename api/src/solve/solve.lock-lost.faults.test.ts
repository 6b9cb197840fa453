import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { insertIssue } from "@fixloop/testkit";
import { QUEUES, STEPS, jobIds, runEventsKey } from "@fixloop/contract";
import { parseEntry } from "@fixloop/runtime";
import { createTestStack, type TestStack } from "../../test/stack";
import { until } from "../../test/faults.testkit";
import { lapseLock, queueWorkers } from "../../test/lock-lost.testkit";

/**
 * Two solve workers, each with a model stand-in of its own, so every request shows which worker
 * sent it. The first one's lock on a run's job is taken from it while its model call is in flight,
 * and the job handed to the second, as BullMQ does with a job whose lock lapsed.
 */
let first: ModelSandbox;
let second: ModelSandbox;
let stack: TestStack;
const workers = queueWorkers(() => stack, QUEUES.solve);
const firstLog: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  first = await startModelSandbox();
  second = await startModelSandbox();
  stack = await createTestStack({ env: second.env, workers: false, logLevel: "warn" });
});
afterAll(async () => {
  // The stand-ins first: a request still held there would keep its worker from closing.
  await first?.stop();
  await second?.stop();
  await workers.closeAll();
});

describe("a worker whose lock on a run's job lapsed", () => {
  it("aborts the run's model call at once and writes nothing more; the new holder completes the run once", async () => {
    const me = await stack.signIn("octocat");
    const issue = await insertIssue(stack.db, me.user._id, { number: 77 });
    first.control.hangNext(1);
    const firstWorker = workers.start({ env: first.env, log: firstLog });
    const started = await stack.app.request("/api/ai/generate-solution", {
      method: "POST",
      headers: { ...me.headers, "content-type": "application/json" },
      body: JSON.stringify({ issueId: issue.id }),
    });
    expect(started.status).toBe(202);
    const { runId } = (await started.json()) as { runId: string };
    await until("the first worker's model call in flight", async () => first.control.requests.length === 1, 60_000);
    const inFlight = first.control.requests[0];
    if (!inFlight) throw new Error("no model request in flight");

    // The lock lapses and the job goes back to the queue, where the second worker takes it. The first
    // takes no new job from now on: once its call is aborted it would otherwise race the second (whose
    // sandbox self-check may still run) for this one.
    await firstWorker.workers[0]?.pause(true);
    workers.start({ env: second.env });
    const job = await stack.deps.queues.solve.getJob(jobIds.solve(runId));
    const handedAt = await lapseLock(stack, QUEUES.solve, job);

    // The first worker's next lock renewal fails; its model call is aborted well before the lock would be due again.
    await until("the first worker's call aborted", async () => first.control.abortedRequests === 1, 20_000, 50);
    expect(Date.now() - handedAt).toBeLessThan(15_000);
    await until(
      "the run completed",
      async () =>
        (await stack.db.selectFrom("solve_runs").select("status").where("id", "=", runId).executeTakeFirst())
          ?.status === "completed",
      90_000,
    );

    // Closing waits for the first worker's job to end: whatever it was going to write is written by then.
    await workers.close(firstWorker);

    // The first worker sent nothing beyond the request in flight; the second sent that step's request again.
    expect(first.control.requests).toHaveLength(1);
    expect(
      second.control.requests.filter((r) => r.tool === inFlight.tool && r.prompt === inFlight.prompt),
    ).toHaveLength(1);
    const run = await stack.db.selectFrom("solve_runs").selectAll().where("id", "=", runId).executeTakeFirstOrThrow();
    expect([run.status, run.error_code, run.cancel_requested_at]).toEqual(["completed", null, null]);
    const solutions = await stack.db.selectFrom("solutions").select("id").where("issue_id", "=", issue.id).execute();
    expect(solutions.map((s) => s.id)).toEqual([run.solution_id]);
    const steps = await stack.db
      .selectFrom("run_steps")
      .select(["step", "status"])
      .where("run_id", "=", runId)
      .execute();
    expect(steps.map((s) => s.status)).toEqual(STEPS.map(() => "completed"));
    // Neither cancelled nor failed, not even for a moment, and completed once.
    const events = (await stack.redis.xrange(runEventsKey(stack.prefix, runId), "-", "+")).map(([, f]) =>
      parseEntry(f),
    );
    const names = events.map((e) => (e?.type === "step" ? `${e.step}:${e.status}` : e?.type));
    expect(names.filter((n) => n === "completed")).toHaveLength(1);
    expect(names.filter((n) => n === "cancelled" || n === "failed" || n?.endsWith(":failed"))).toEqual([]);
    expect(firstLog.filter((l) => l.msg === "run ending cancelled")).toEqual([]);
    expect(firstLog.filter((l) => String(l.msg).startsWith("lost the job's lock"))).toHaveLength(1);
  }, 120_000);
});
