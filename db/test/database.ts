import crypto from "node:crypto";
import { inject, afterAll } from "vitest";
import { createDb, type Db } from "../src/client";
import { ensureDatabase } from "../src/database";

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
