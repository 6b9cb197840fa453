import path from "node:path";
import { startEmbeddedPostgres, type RunningPostgres } from "./postgres";
import { startRedisServer, type RunningRedis } from "./redis";
import { ensureAppDatabase } from "./postgres-auth";
import { loadOrCreateServiceSecrets } from "../secrets";

export { startEmbeddedPostgres, type RunningPostgres } from "./postgres";
export { startRedisServer, findRedisServer, REDIS_MISSING_MESSAGE, type RunningRedis } from "./redis";
export { pickPort } from "./ports";
export { ensureAppDatabase } from "./postgres-auth";
export { loadOrCreateLocalSecrets } from "../secrets";
export { ensureDatabase } from "@fixloop/db";

/** The embedded cluster's login for the app: owns its database, not a superuser. */
export const APP_ROLE = "fixloop_app";

export interface Services {
  /** As the app's role (embedded) or DATABASE_URL as given. */
  databaseUrl: string;
  /** The embedded cluster's superuser URL (maintenance database); absent with DATABASE_URL. */
  adminUrl?: string;
  redisUrl: string;
  postgres?: RunningPostgres;
  redis?: RunningRedis;
  stop(): Promise<void>;
}

/**
 * Uses DATABASE_URL / REDIS_URL when given, otherwise starts embedded Postgres and a local
 * redis-server with their data under `dataDir`, each behind a password generated into
 * `dataDir/secrets.json`; the app's database belongs to a role that is not a superuser.
 * Shared by `npm start`, benchmarks and the test setup.
 */
export async function startServices(opts: {
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  durable?: boolean;
  pgPort?: number;
  redisPort?: number;
  databaseName?: string;
  log?: (line: string) => void;
}): Promise<Services> {
  let postgres: RunningPostgres | undefined;
  let redis: RunningRedis | undefined;
  let databaseUrl = opts.databaseUrl;
  let redisUrl = opts.redisUrl;
  const secrets = () => loadOrCreateServiceSecrets(opts.dataDir);
  try {
    if (!databaseUrl) {
      postgres = await startEmbeddedPostgres({
        dataDir: path.join(opts.dataDir, "postgres"),
        password: secrets().POSTGRES_ADMIN_PASSWORD,
        port: opts.pgPort,
        durable: opts.durable,
        log: opts.log,
      });
      const name = opts.databaseName ?? "fixloop";
      databaseUrl = await ensureAppDatabase(postgres.url, name, APP_ROLE, secrets().POSTGRES_APP_PASSWORD);
    }
    if (!redisUrl) {
      redis = await startRedisServer({
        dataDir: path.join(opts.dataDir, "redis"),
        password: secrets().REDIS_PASSWORD,
        port: opts.redisPort,
        log: opts.log,
      });
      redisUrl = redis.url;
    }
  } catch (err) {
    await redis?.stop();
    await postgres?.stop();
    throw err;
  }
  return {
    databaseUrl,
    adminUrl: postgres?.url,
    redisUrl,
    postgres,
    redis,
    async stop() {
      await Promise.allSettled([redis?.stop(), postgres?.stop()]);
    },
  };
}
