import { Redis } from "ioredis";
import { createDb, createTokenCipher } from "@fixloop/db";
import { QUEUES, type QueueName } from "@fixloop/contract";
import { createLogger, createQueues, redisConnection, registerShutdown } from "@fixloop/runtime";
import { loadWorkerEnv } from "./env";
import { setLocalizeThreads } from "./localize";
import { startWorkers } from "./runtime";
import type { WorkerContext } from "./context";

const env = loadWorkerEnv();
if (env.LOCALIZE_THREADS !== undefined) setLocalizeThreads(env.LOCALIZE_THREADS);
const logger = createLogger(env.LOG_LEVEL, "worker");
const db = createDb(env.DATABASE_URL, { max: env.WORKER_CONCURRENCY * 4 + 2 });
const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
redis.on("error", (err) => logger.warn({ err: err.message }, "redis connection error"));
const queues = createQueues(redisConnection(env.REDIS_URL), env.QUEUE_PREFIX, (err) =>
  logger.warn({ err: err.message }, "queue connection error"),
);
const ctx: WorkerContext = { env, db, redis, queues, logger, cipher: createTokenCipher(env.TOKEN_ENCRYPTION_KEYS) };

const served = env.WORKER_QUEUES.split(",")
  .map((s) => s.trim())
  .filter(Boolean) as QueueName[];
for (const q of served) if (!Object.values(QUEUES).includes(q)) throw new Error(`Unknown queue in WORKER_QUEUES: ${q}`);
const running = startWorkers(ctx, { queues: served });
logger.info(
  { queues: served.length ? served : Object.values(QUEUES), concurrency: env.WORKER_CONCURRENCY },
  "worker started",
);

registerShutdown({
  onStart: (signal) => logger.info({ signal }, "worker draining"),
  graceMs: env.WORKER_DRAIN_SECONDS * 1000,
  async onTimeout() {
    const jobs = await running.handBack();
    logger.warn({ jobs }, "drain timed out; unfinished jobs went back to the queue for another worker");
  },
  async close() {
    await running.close();
    await queues.close().catch(() => {});
    redis.disconnect();
    await db.destroy().catch(() => {});
  },
});
