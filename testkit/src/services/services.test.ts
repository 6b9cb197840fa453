import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "./postgres";
import { startRedisServer } from "./redis";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-launcher-"));
fs.chmodSync(dir, 0o755);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function query(url: string, text: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await c.query(text);
  } finally {
    await c.end();
  }
}

describe("service launcher", () => {
  it("restarts Postgres on existing data and keeps it", async () => {
    const dataDir = path.join(dir, "postgres");
    const first = await startEmbeddedPostgres({ dataDir, durable: true });
    await query(first.url, "create table kept (v text); insert into kept values ('still here')");
    await first.stop();
    const t0 = performance.now();
    const second = await startEmbeddedPostgres({ dataDir, durable: true });
    const restartMs = performance.now() - t0;
    const { rows } = await query(second.url, "select v from kept");
    await second.stop();
    expect(rows).toEqual([{ v: "still here" }]);
    expect(restartMs).toBeLessThan(30_000);
  });

  it("restarts Redis on the same AOF data, even after a hard kill", async () => {
    const dataDir = path.join(dir, "redis");
    const first = await startRedisServer({ dataDir });
    const a = new Redis(first.url);
    await a.set("k", "v");
    await a.config("GET", "maxmemory-policy").then((r) => expect(r).toEqual(["maxmemory-policy", "noeviction"]));
    await a.config("GET", "appendonly").then((r) => expect(r).toEqual(["appendonly", "yes"]));
    // appendfsync everysec: give the AOF a second before the crash
    await new Promise((r) => setTimeout(r, 1_200));
    a.disconnect();
    await first.kill();
    const second = await startRedisServer({ dataDir });
    const b = new Redis(second.url);
    expect(await b.get("k")).toBe("v");
    b.disconnect();
    await second.stop();
  });
});
