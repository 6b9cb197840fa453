import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedisServer, type RunningRedis } from "@fixloop/testkit/services";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { createTestStack, type TestStack } from "../../test/stack";
import { insertIssue } from "@fixloop/testkit";
import { inPool, makeEnterprise, until, usedQuota, workerProcesses } from "../../test/faults.testkit";

/**
 * Redis killed with SIGKILL (AOF fsync every second, so the last writes can be lost) while 100
 * solves are being accepted and run, then started again on the same data. Postgres knows every
 * accepted run; the sweeper re-enqueues what Redis forgot.
 */
const RUNS = 100;
const KILL_AFTER = 40;

let redisDir: string;
let redis: RunningRedis;
let models: ModelSandbox;
let stack: TestStack;
const workers = workerProcesses();

beforeAll(async () => {
  redisDir = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-redis-fault-"));
  redis = await startRedisServer({ dataDir: redisDir });
  models = await startModelSandbox();
  stack = await createTestStack({
    env: { ...models.env, REDIS_URL: redis.url, JOB_WAIT_SECONDS: "0" },
    workers: false,
    logLevel: "warn",
  });
}, 120_000);
afterAll(async () => {
  await redis?.stop();
  await models?.stop();
  fs.rmSync(redisDir, { recursive: true, force: true });
});

describe("Redis killed and restarted on the same AOF data during 100 solves", () => {
  it("loses no accepted run", async () => {
    const me = await stack.signIn("octocat");
    await makeEnterprise(stack.db, me.user._id);
    const headers = { ...me.headers, "content-type": "application/json" };
    const issues = await inPool(
      Array.from({ length: RUNS }, (_, i) => i),
      10,
      (i) => insertIssue(stack.db, me.user._id, { number: 500 + i }),
    );
    models.control.latency(300);
    const worker = workers.start({
      DATABASE_URL: stack.deps.env.DATABASE_URL,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: stack.prefix,
      GITHUB_API_URL: stack.github.url,
      WORKER_QUEUES: "solve",
      SWEEP_INTERVAL_SECONDS: "2",
      ...models.env,
    });

    let answered = 0;
    let restart: Promise<void> | null = null;
    const started = Date.now();
    const results = await inPool(issues, 8, async (issue) => {
      const res = await stack.app.request("/api/ai/generate-solution", {
        method: "POST",
        headers,
        body: JSON.stringify({ issueId: issue.id }),
      });
      const body = (await res.json()) as { runId?: string; error?: { code: string; message: string } };
      if (++answered === KILL_AFTER) {
        restart = (async () => {
          await redis.kill();
          await new Promise((r) => setTimeout(r, 1_000));
          redis = await startRedisServer({ dataDir: redisDir, port: redis.port, password: redis.password });
        })();
      }
      return { status: res.status, runId: body.runId, error: body.error };
    });
    await restart;
    const accepted = results.filter((r) => r.status === 202).map((r) => r.runId as string);
    const refused = results.filter((r) => r.status !== 202);
    for (const r of refused) expect(r.status, JSON.stringify(r.error)).toBe(503);

    const runs = () => stack.db.selectFrom("solve_runs").selectAll().where("user_id", "=", me.user._id).execute();
    await until(
      "every run finished",
      async () => (await runs()).every((r) => r.status === "completed" || r.status === "failed"),
      // About 100 s on a quiet machine; a lost run never finishes, so the room only delays a failure.
      300_000,
      1_000,
    );
    await workers.stop(worker);

    const all = await runs();
    const completed = new Set(all.filter((r) => r.status === "completed").map((r) => r.id));
    const lost = accepted.filter((id) => !completed.has(id));
    const solutions = await stack.db
      .selectFrom("solutions")
      .select("issue_id")
      .where("user_id", "=", me.user._id)
      .execute();
    const figures = {
      enqueues: RUNS,
      accepted: accepted.length,
      refusedWith503: refused.length,
      runsLost: lost.length,
      failedRuns: all.filter((r) => r.status === "failed").map((r) => r.error_code),
      recoveredAfterRestart: all.filter((r) => r.attempts > 1).length,
      seconds: Math.round((Date.now() - started) / 1000),
    };
    console.log(`redis restart figures: ${JSON.stringify(figures)}`);
    expect(lost).toEqual([]);
    expect(solutions).toHaveLength(completed.size);
    expect(new Set(solutions.map((s) => s.issue_id)).size).toBe(completed.size);
    expect(await usedQuota(stack.db, me.user._id)).toBe(completed.size);
  }, 360_000);

  it("recovers every accepted run from Postgres when Redis comes back with no data at all", async () => {
    const me = await stack.signIn("octocat");
    const headers = { ...me.headers, "content-type": "application/json" };
    const issues = await inPool(
      Array.from({ length: 20 }, (_, i) => i),
      10,
      (i) => insertIssue(stack.db, me.user._id, { number: 800 + i }),
    );
    const before = await usedQuota(stack.db, me.user._id);
    // Accepted while no worker runs: the jobs exist only in Redis.
    const accepted = await inPool(issues, 8, async (issue) => {
      const res = await stack.app.request("/api/ai/generate-solution", {
        method: "POST",
        headers,
        body: JSON.stringify({ issueId: issue.id }),
      });
      expect(res.status).toBe(202);
      return ((await res.json()) as { runId: string }).runId;
    });
    await redis.kill();
    const emptyDir = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-redis-empty-"));
    redis = await startRedisServer({ dataDir: emptyDir, port: redis.port, password: redis.password });
    expect(await stack.deps.queues.solve.getJobCounts("waiting", "active", "delayed")).toEqual({
      waiting: 0,
      active: 0,
      delayed: 0,
    });
    const worker = workers.start({
      DATABASE_URL: stack.deps.env.DATABASE_URL,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: stack.prefix,
      GITHUB_API_URL: stack.github.url,
      WORKER_QUEUES: "solve",
      SWEEP_INTERVAL_SECONDS: "2",
      ...models.env,
    });
    const runs = () => stack.db.selectFrom("solve_runs").select(["id", "status"]).where("id", "in", accepted).execute();
    await until(
      "the sweeper re-enqueued and finished every run",
      async () => (await runs()).every((r) => r.status === "completed"),
      120_000,
      1_000,
    );
    await workers.stop(worker);
    console.log(
      `redis data loss figures: ${JSON.stringify({ accepted: accepted.length, jobsLeftInRedis: 0, runsLost: (await runs()).filter((r) => r.status !== "completed").length })}`,
    );
    expect(await usedQuota(stack.db, me.user._id)).toBe(before + accepted.length);
    fs.rmSync(emptyDir, { recursive: true, force: true });
  }, 180_000);
});
