import { afterAll, describe, expect, it } from "vitest";
import pino from "pino";
import { createTokenCipher } from "@fixloop/db";
import { loadWorkerEnv, startWorkers, type BwrapOptions } from "@fixloop/worker";
import { eventually } from "@fixloop/testkit";
import { createTestApp, TEST_ENCRYPTION_KEYS, type TestApp } from "../../test/testing";

const running: { close(): Promise<void> }[] = [];
afterAll(() => Promise.all(running.map((r) => r.close())));

/** A solve worker on the test app's database and queues, its self-check's sandbox built with `bwrap`. */
function solveWorker(t: TestApp, bwrap?: BwrapOptions) {
  const env = loadWorkerEnv({
    NODE_ENV: "test",
    DATABASE_URL: t.deps.env.DATABASE_URL,
    REDIS_URL: t.deps.env.REDIS_URL,
    QUEUE_PREFIX: t.prefix,
    TOKEN_ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    PR_POLL_INTERVAL_SECONDS: "0",
  });
  const ctx = {
    env,
    db: t.db,
    redis: t.redis,
    queues: t.deps.queues,
    logger: pino({ level: "silent" }),
    cipher: createTokenCipher(TEST_ENCRYPTION_KEYS),
  };
  const r = startWorkers(ctx, { queues: ["solve"], concurrency: 1, sandboxCheck: bwrap });
  running.push(r);
  return r;
}

const until = async <T>(what: string, read: () => Promise<T | null | undefined | false>): Promise<T> =>
  (await eventually(async () => (await read()) || false, { what, timeout: 20_000, interval: 100 })) as T;

/** A solve job whose payload the worker refuses at once: it fails the moment a worker takes it. */
const takeable = (t: TestApp) => t.deps.queues.solve.add("probe", { runId: "not-a-run" });

describe("the sandbox self-check of a solve worker", () => {
  it("holds every wall of the real sandbox, and the worker takes solve jobs", async () => {
    const t = await createTestApp();
    const w = solveWorker(t);
    const check = await w.sandboxGate?.first;
    expect(check).toMatchObject({ backend: "bwrap", mode: "on", ok: true, detail: {} });
    expect(Object.values(check?.walls ?? {})).toEqual(Array(7).fill("held"));
    expect(check?.versions.bwrap).toMatch(/^bubblewrap \d/);
    const job = await takeable(t);
    await until("the job taken", async () => (await job.getState()) === "failed");
    const health = await until("the check in the heartbeat", async () => {
      const b = await (await t.client().health.$get()).json();
      return b.sandbox.length ? b : null;
    });
    expect(health).toMatchObject({ checks: { sandbox: "ok" }, sandbox: [{ backend: "bwrap", ok: true }] });
    const metrics = await (await t.app.request("/metrics")).text();
    expect(metrics).toMatch(new RegExp(`fixloop_sandbox_wall\\{worker="${w.presence.id}",wall="network"\\} 1`));
  });

  it("finds a sandbox sharing the host's network, and the worker declines solve jobs", async () => {
    const t = await createTestApp();
    const w = solveWorker(t, { without: ["network"] });
    const job = await takeable(t);
    const check = await w.sandboxGate?.first;
    expect(check?.ok).toBe(false);
    expect(check?.walls).toMatchObject({ network: "missing", "host-files": "held", userns: "held" });
    expect(check?.detail.network).toMatch(/^reached the host at 127\.0\.0\.1:\d+/);
    const health = await until("the failing check in /api/health", async () => {
      const b = await (await t.client().health.$get()).json();
      return b.sandbox.length ? b : null;
    });
    expect(health).toMatchObject({
      status: "degraded",
      checks: { sandbox: "failing" },
      sandbox: [{ worker: w.presence.id, ok: false, mode: "on", walls: { network: "missing" } }],
    });
    const metrics = await (await t.app.request("/metrics")).text();
    expect(metrics).toMatch(new RegExp(`fixloop_sandbox_wall\\{worker="${w.presence.id}",wall="network"\\} 0`));
    expect(metrics).toMatch(
      new RegExp(`fixloop_sandbox_ok\\{worker="${w.presence.id}",backend="bwrap",mode="on"\\} 0`),
    );
    // The same job the first case's worker failed at once stays in line here: the failed check,
    // already read back above, left the queue's worker stopped, so nothing takes the job.
    expect(w.workers[0]?.isRunning()).toBe(false);
    expect(await job.getState()).toBe("waiting");
  });
});
