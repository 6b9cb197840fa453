import { Hono } from "hono";
import type { AppEnv } from "../deps";
import { pingDatabase } from "@fixloop/db";
import { listWorkers } from "@fixloop/runtime";

const TIMEOUT_MS = 2_000;

function withTimeout<T>(p: Promise<T>): Promise<T> {
  return Promise.race([p, new Promise<T>((_, rej) => setTimeout(() => rej(new Error("timeout")), TIMEOUT_MS).unref())]);
}

/**
 * Database and Redis reachability, plus the workers BullMQ sees on each queue (its worker
 * connections in Redis). With a backing service down the answer is 503 `error`; with every
 * service up but a queue nobody serves it is 200 `degraded`, since accepted jobs would wait.
 * `sandbox` lists each worker's last sandbox self-check (workers serving solve or tests-rerun);
 * one whose check failed takes no solve, so the answer is `degraded` too.
 */
export const healthRoutes = new Hono<AppEnv>().get("/health", async (c) => {
  const { db, redis, queues } = c.var.deps;
  const all = queues.all();
  const [database, cache, seen, registry] = await Promise.allSettled([
    withTimeout(pingDatabase(db)),
    withTimeout(redis.ping()),
    withTimeout(Promise.all(all.map(async (q) => [q.name, (await q.getWorkers()).length] as const))),
    withTimeout(listWorkers(redis, queues.prefix)),
  ]);
  const sandbox = (registry.status === "fulfilled" ? registry.value : []).flatMap((w) =>
    w.sandbox ? [{ worker: w.id, host: w.host, queues: w.queues, ...w.sandbox }] : [],
  );
  const workers = Object.fromEntries(seen.status === "fulfilled" ? seen.value : all.map((q) => [q.name, 0]));
  const checks = {
    database: database.status === "fulfilled" ? "ok" : "error",
    redis: cache.status === "fulfilled" ? "ok" : "error",
    workers: Object.values(workers).every((n) => n > 0) ? "ok" : "none",
    sandbox: sandbox.every((c) => c.ok) ? "ok" : "failing",
  } as const;
  const up = checks.database === "ok" && checks.redis === "ok";
  const status = !up ? "error" : checks.workers === "ok" && checks.sandbox === "ok" ? "ok" : "degraded";
  return c.json({ status, checks, workers, sandbox }, up ? 200 : 503);
});
