import { serve } from "@hono/node-server";
import { Redis } from "ioredis";
import { createDb, migrateToLatest } from "@fixloop/db";
import { createQueues, redisConnection } from "@fixloop/worker/contract";
import { createApp } from "./app";
import { loadApiEnv } from "./env";
import { createLogger } from "./http/logger";

const env = loadApiEnv();
const logger = createLogger(env.LOG_LEVEL, "api");
// Idempotent and serialised by an advisory lock, so every API process can run it at start.
await migrateToLatest(env.DATABASE_URL, { tokenEncryptionKeys: env.TOKEN_ENCRYPTION_KEYS });
const db = createDb(env.DATABASE_URL, { max: 20 });
const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 2, enableOfflineQueue: false, lazyConnect: false });
redis.on("error", (err) => logger.warn({ err: err.message }, "redis connection error"));
const queues = createQueues(redisConnection(env.REDIS_URL), env.QUEUE_PREFIX, (err) =>
  logger.warn({ err: err.message }, "queue connection error"),
);
const app = createApp({ env, db, redis, queues, logger });

const server = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => {
  logger.info({ port: info.port }, "api listening");
});

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  logger.info({ signal }, "api shutting down");
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  server.close();
  await queues.close().catch(() => {});
  redis.disconnect();
  await db.destroy().catch(() => {});
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
// Started by the launcher with an IPC channel: its end means the launcher is gone.
if (process.send) process.on("disconnect", () => void shutdown("launcher exited"));
