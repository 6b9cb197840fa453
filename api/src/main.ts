import { serve } from "@hono/node-server";
import { Redis } from "ioredis";
import { createDb, migrateToLatest } from "@fixloop/db";
import { createQueues, redisConnection, registerShutdown, createLogger } from "@fixloop/runtime";
import { createApp } from "./app";
import { loadApiEnv } from "./env";

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

registerShutdown({
  onStart: (signal) => logger.info({ signal }, "api shutting down"),
  graceMs: 10_000,
  async close() {
    server.close();
    await queues.close().catch(() => {});
    redis.disconnect();
    await db.destroy().catch(() => {});
  },
});
