import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { insertIssue, superviseTs, TEST_ENCRYPTION_KEYS } from "@fixloop/testkit";
import { createTestStack, type TestStack } from "../../test/stack";
import { until } from "../../test/faults.testkit";

/**
 * The launcher's worker supervision: a worker killed with SIGKILL and never restarted by hand
 * is started again by the launcher, health shows it, and the run it was working on completes.
 */
let models: ModelSandbox;
let stack: TestStack;
let worker: ReturnType<typeof superviseTs>;
const lines: string[] = [];

beforeAll(async () => {
  models = await startModelSandbox();
  stack = await createTestStack({ env: models.env, workers: false, logLevel: "warn" });
  const env = {
    NODE_ENV: "test",
    DATABASE_URL: stack.deps.env.DATABASE_URL,
    REDIS_URL: stack.deps.env.REDIS_URL,
    QUEUE_PREFIX: stack.prefix,
    GITHUB_API_URL: stack.github.url,
    TOKEN_ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    LOG_LEVEL: "warn",
    ...models.env,
  };
  worker = superviseTs("worker-1", "worker/src/main.ts", env, { backoffMs: 200, onLine: (_, l) => lines.push(l) });
}, 120_000);
afterAll(async () => {
  await worker?.stop(5_000);
  await models?.stop();
});

const health = async () =>
  (await (await stack.app.request("/api/health")).json()) as { status: string; workers: Record<string, number> };

describe("a worker killed with SIGKILL under the launcher", () => {
  it("is restarted with no manual step, health reports it again, and the run completes", async () => {
    const me = await stack.signIn("octocat");
    const headers = { ...me.headers, "content-type": "application/json" };
    await until("the worker serves every queue", async () => (await health()).status === "ok", 60_000);
    const issue = await insertIssue(stack.db, me.user._id, { number: 3 });
    const res = await stack.app.request("/api/ai/generate-solution", {
      method: "POST",
      headers,
      body: JSON.stringify({ issueId: issue.id }),
    });
    expect(res.status).toBe(202);
    const { runId } = (await res.json()) as { runId: string };
    const status = async () =>
      (await stack.db.selectFrom("solve_runs").select("status").where("id", "=", runId).executeTakeFirstOrThrow())
        .status;
    await until("the run is picked up", async () => (await status()) !== "queued", 60_000, 50);

    const firstPid = worker.proc.pid;
    process.kill(firstPid ?? 0, "SIGKILL");
    await until(
      "the launcher restarted the worker",
      async () => worker.restarts >= 1 && worker.proc.pid !== firstPid,
      30_000,
      50,
    );
    expect(lines.some((l) => /exited unexpectedly \(SIGKILL\); restarting in \d+ ms/.test(l))).toBe(true);
    await until("health sees the new worker", async () => (await health()).status === "ok", 60_000);
    await until("the run completed", async () => (await status()) === "completed", 110_000, 500);
  });
});
