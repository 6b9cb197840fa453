import path from "node:path";
import { startEmbeddedPostgres, type RunningPostgres } from "./postgres";
import { startRedisServer, type RunningRedis } from "./redis";

export { startEmbeddedPostgres, type RunningPostgres } from "./postgres";
export { startRedisServer, findRedisServer, REDIS_MISSING_MESSAGE, type RunningRedis } from "./redis";
export { pickPort } from "./ports";

export interface Services {
  databaseUrl: string;
  redisUrl: string;
  postgres?: RunningPostgres;
  redis?: RunningRedis;
  stop(): Promise<void>;
}

/**
 * Uses DATABASE_URL / REDIS_URL when given, otherwise starts embedded Postgres and a local
 * redis-server with their data under `dataDir`. Shared by `npm start`, benchmarks and the test setup.
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
  try {
    if (!databaseUrl) {
      postgres = await startEmbeddedPostgres({
        dataDir: path.join(opts.dataDir, "postgres"),
        port: opts.pgPort,
        durable: opts.durable,
        log: opts.log,
      });
      databaseUrl = await ensureDatabase(postgres.url, opts.databaseName ?? "fixloop");
    }
    if (!redisUrl) {
      redis = await startRedisServer({
        dataDir: path.join(opts.dataDir, "redis"),
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
    redisUrl,
    postgres,
    redis,
    async stop() {
      await Promise.allSettled([redis?.stop(), postgres?.stop()]);
    },
  };
}

/** Creates database `name` on the cluster at `adminUrl` when missing; returns its URL. */
export async function ensureDatabase(adminUrl: string, name: string, template?: string): Promise<string> {
  const pg = (await import("pg")).default;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount === 0) {
      const tpl = template ? ` template ${client.escapeIdentifier(template)}` : "";
      await client.query(`create database ${client.escapeIdentifier(name)}${tpl}`).catch((e: { code?: string }) => {
        if (e.code !== "42P04") throw e; // created meanwhile by another process
      });
    }
  } finally {
    await client.end();
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}
