import crypto from "node:crypto";
import { inject, afterAll } from "vitest";
import { Redis } from "ioredis";
import { createDb, type Db } from "@fixloop/db";
import { ensureDatabase } from "../src/services";

/** The token-encryption key every test process shares, so a worker can read what the API stored. */
export const TEST_ENCRYPTION_KEYS = `k1:${Buffer.alloc(32, 7).toString("base64")}`;

export interface TestDatabase {
  url: string;
  db: Db;
}

/** A fresh, migrated database for this test file (cloned from the run's template), dropped after the file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const admin = inject("pgAdminUrl");
  const name = `t_${crypto.randomBytes(6).toString("hex")}`;
  // Created by the superuser, owned by and used as the app's role (not a superuser), as `npm start` runs.
  const app = new URL(inject("pgAppUrl"));
  const owner = app.username === new URL(admin).username ? undefined : decodeURIComponent(app.username);
  await ensureDatabase(admin, name, inject("templateDatabase"), owner);
  app.pathname = `/${name}`;
  const url = app.toString();
  const db = createDb(url, { max: 10 });
  afterAll(async () => {
    await db.destroy();
    const pg = (await import("pg")).default;
    const c = new pg.Client({ connectionString: admin });
    await c.connect();
    await c.query(`drop database if exists ${c.escapeIdentifier(name)} with (force)`).catch(() => {});
    await c.end();
  });
  return { url, db };
}

/** A key prefix unique to this test file, for BullMQ queues and run event streams. */
export function testPrefix(): string {
  return `t${crypto.randomBytes(5).toString("hex")}`;
}

export function testRedisUrl(): string {
  return inject("redisUrl");
}

/** A Redis connection closed after the file. */
export function createTestRedis(): Redis {
  const r = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
  afterAll(async () => {
    r.disconnect();
  });
  return r;
}
