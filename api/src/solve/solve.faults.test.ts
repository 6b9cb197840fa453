import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import url from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { createTestStack, type TestStack } from "../../test/stack";
import { TEST_ENCRYPTION_KEYS } from "../../test/testing";
import { until } from "../../test/faults.testkit";
import { parseEntry } from "@fixloop/runtime";
import { runEventsKey } from "@fixloop/contract";
import { insertIssue } from "@fixloop/testkit";

const ROOT = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "../../..");
let models: ModelSandbox;
let stack: TestStack;
const children: ChildProcess[] = [];

beforeAll(async () => {
  models = await startModelSandbox();
  stack = await createTestStack({ env: models.env, workers: false, logLevel: "warn" });
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  await models?.stop();
});

/** A real worker process (node + tsx) on this test's database, Redis prefix and stand-ins. */
function startWorkerProcess(): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", "worker/src/main.ts"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "test",
      DATABASE_URL: stack.deps.env.DATABASE_URL,
      REDIS_URL: stack.deps.env.REDIS_URL,
      QUEUE_PREFIX: stack.prefix,
      TOKEN_ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
      GITHUB_API_URL: stack.github.url,
      WORKER_QUEUES: "solve",
      WORKER_CONCURRENCY: "10",
      MAX_ACTIVE_RUNS_PER_USER: "64",
      LOG_LEVEL: "warn",
      ...models.env,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  children.push(child);
  return child;
}

describe("a worker killed during generation", () => {
  it("completes all 10 runs exactly once on a new worker, without redoing steps 1-3 or charging twice", async () => {
    const me = await stack.signIn("octocat");
    const headers = { ...me.headers, "content-type": "application/json" };
    const issues = await Promise.all(
      Array.from({ length: 10 }, (_, i) => insertIssue(stack.db, me.user._id, { number: 200 + i })),
    );
    models.control.latency(60_000);
    const first = startWorkerProcess();
    const runIds: string[] = [];
    for (const issue of issues) {
      const res = await stack.app.request("/api/ai/generate-solution", {
        method: "POST",
        headers,
        body: JSON.stringify({ issueId: issue.id }),
      });
      expect(res.status).toBe(202);
      runIds.push(((await res.json()) as { runId: string }).runId);
    }
    const generatingRows = () =>
      stack.db
        .selectFrom("run_steps")
        .select("run_id")
        .where("step", "=", "generating")
        .where("status", "=", "running")
        .execute();
    await until(
      "10 runs generating",
      async () => (await generatingRows()).length === 10 && models.control.requests.length >= 10,
      60_000,
    );
    const before = await stack.db
      .selectFrom("run_steps")
      .select(["run_id", "step", "finished_at"])
      .where("step", "in", ["analyzing", "context", "dependencies"])
      .execute();
    expect(before).toHaveLength(30);

    first.kill("SIGKILL");
    await new Promise((r) => first.once("exit", r));
    models.control.latency(0);
    const second = startWorkerProcess();

    const runs = () => stack.db.selectFrom("solve_runs").selectAll().where("id", "in", runIds).execute();
    await until("all runs completed", async () => (await runs()).every((r) => r.status === "completed"), 90_000);
    second.kill("SIGTERM");

    const done = await runs();
    expect(done.every((r) => r.quota_state === "charged" && r.solution_id)).toBe(true);
    expect(done.every((r) => r.attempts === 2)).toBe(true);
    const solutions = await stack.db
      .selectFrom("solutions")
      .select(["issue_id"])
      .where("user_id", "=", me.user._id)
      .execute();
    expect(solutions).toHaveLength(10);
    expect(new Set(solutions.map((s) => s.issue_id)).size).toBe(10);
    const after = await stack.db
      .selectFrom("run_steps")
      .select(["run_id", "step", "finished_at"])
      .where("step", "in", ["analyzing", "context", "dependencies"])
      .execute();
    const key = (r: { run_id: string; step: string; finished_at: Date | null }) =>
      `${r.run_id}:${r.step}:${r.finished_at?.toISOString()}`;
    expect(after.map(key).sort()).toEqual(before.map(key).sort());
    const usage = await stack.db
      .selectFrom("usage_counters")
      .select("used")
      .where("user_id", "=", me.user._id)
      .executeTakeFirstOrThrow();
    expect(usage.used).toBe(10);
    for (const id of runIds) {
      const evs = (await stack.redis.xrange(runEventsKey(stack.prefix, id), "-", "+")).map(([, f]) => parseEntry(f));
      // each step finishes once and the run ends once (running steps report progress many times; test output streams as `tests` events)
      const names = evs
        .filter((e) => e?.type !== "tests" && !(e?.type === "step" && e.status === "running"))
        .map((e) => (e?.type === "step" ? `${e.step}:${e.status}` : e?.type));
      expect(names.filter((n) => n?.endsWith(":completed"))).toHaveLength(5);
      expect(new Set(names).size).toBe(names.length);
      expect(names.filter((n) => n === "completed")).toHaveLength(1);
      expect(names.at(-1)).toBe("completed");
    }
  });
});
