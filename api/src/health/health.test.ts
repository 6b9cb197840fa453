import { describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { Worker } from "bullmq";
import { redisConnection } from "@fixloop/runtime";
import { startRedisServer } from "@fixloop/testkit/services";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestApp } from "../../test/testing";

describe("GET /api/health", () => {
  it("is degraded while a queue has no worker, and ok once every queue has one", async () => {
    const { app, deps } = await createTestApp();
    const res = await app.request("/api/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: "degraded",
      checks: { database: "ok", redis: "ok", workers: "none", sandbox: "ok" },
      sandbox: [],
      workers: { solve: 0, sync: 0, fork: 0, "pull-request": 0, "syntax-check": 0, "tests-rerun": 0, backtest: 0 },
    });
    const connection = redisConnection(deps.env.REDIS_URL);
    const workers = deps.queues
      .all()
      .map((q) => new Worker(q.name, async () => {}, { connection, prefix: deps.queues.prefix }));
    try {
      await Promise.all(workers.map((w) => w.waitUntilReady()));
      const body = await (await app.request("/api/health")).json();
      expect(body).toEqual({
        status: "ok",
        checks: { database: "ok", redis: "ok", workers: "ok", sandbox: "ok" },
        sandbox: [],
        workers: { solve: 1, sync: 1, fork: 1, "pull-request": 1, "syntax-check": 1, "tests-rerun": 1, backtest: 1 },
      });
    } finally {
      await Promise.all(workers.map((w) => w.close()));
    }
  });

  it("answers 503 naming redis when Redis is stopped", async () => {
    const t = await createTestApp();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-redis-"));
    const own = await startRedisServer({ dataDir: dir });
    const redis = new Redis(own.url, { maxRetriesPerRequest: 0, enableOfflineQueue: false, retryStrategy: () => 200 });
    await new Promise((r) => redis.once("ready", r));
    t.deps.redis = redis;
    expect((await t.app.request("/api/health")).status).toBe(200);
    await own.stop();
    const res = await t.app.request("/api/health");
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: "error", checks: { database: "ok", redis: "error" } });
    redis.disconnect();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const { app } = await createTestApp();
    const res = await app.request("/api/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "route.not_found", message: "Not found" } });
  });
});
