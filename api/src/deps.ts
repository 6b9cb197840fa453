import type { Redis } from "ioredis";
import type { Db } from "@fixloop/db";
import { type Queues, type Logger } from "@fixloop/runtime";
import type { ApiEnv } from "./env";
import type { CurrentUser } from "./auth/auth.types";

/** Everything the app needs from the outside world, passed in by main.ts or a test. */
export interface AppDeps {
  env: ApiEnv;
  db: Db;
  redis: Redis;
  queues: Queues;
  logger: Logger;
}

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    user: CurrentUser;
    requestId: string;
  };
}
