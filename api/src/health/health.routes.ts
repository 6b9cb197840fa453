import { Hono } from "hono";
import { sql } from "kysely";
import type { AppEnv } from "../deps";

const TIMEOUT_MS = 2_000;

function withTimeout<T>(p: Promise<T>): Promise<T> {
  return Promise.race([p, new Promise<T>((_, rej) => setTimeout(() => rej(new Error("timeout")), TIMEOUT_MS).unref())]);
}

export const healthRoutes = new Hono<AppEnv>().get("/health", async (c) => {
  const { db, redis } = c.var.deps;
  const [database, cache] = await Promise.allSettled([
    withTimeout(sql`select 1`.execute(db)),
    withTimeout(redis.ping()),
  ]);
  const checks = {
    database: database.status === "fulfilled" ? "ok" : "error",
    redis: cache.status === "fulfilled" ? "ok" : "error",
  } as const;
  const ok = checks.database === "ok" && checks.redis === "ok";
  return c.json({ status: ok ? "ok" : "error", checks }, ok ? 200 : 503);
});
