import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { Db, TokenCipher } from "@fixloop/db";
import type { Queues } from "@fixloop/runtime";
import type { WorkerEnv } from "./env";

/** What every processor gets besides its job: real dependencies, passed in by main.ts or a test. */
export interface WorkerContext {
  env: WorkerEnv;
  db: Db;
  redis: Redis;
  queues: Queues;
  logger: Logger;
  cipher: TokenCipher;
}
