import { describe, expect, it } from "vitest";
import { Redis } from "ioredis";
import { startRedisServer } from "@fixloop/infra/services";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestApp } from "../../test/testing";

describe("GET /api/health", () => {
  it("reports database and redis ok", async () => {
    const { app } = await createTestApp();
    const res = await app.request("/api/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", checks: { database: "ok", redis: "ok" } });
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
    expect(await res.json()).toEqual({ status: "error", checks: { database: "ok", redis: "error" } });
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
