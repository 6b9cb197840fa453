import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrateToLatest } from "@fixloop/db";
import { APP_ROLE, ensureAppDatabase, ensureDatabase, startServices, type Services } from "../src/services";

declare module "vitest" {
  export interface ProvidedContext {
    pgAdminUrl: string;
    /** The app's non-superuser role on the template database (the admin URL with an external TEST_DATABASE_URL). */
    pgAppUrl: string;
    redisUrl: string;
    templateDatabase: string;
  }
}

export const TEMPLATE_DATABASE = "fixloop_template";

let services: Services | undefined;
let dir: string | undefined;

/** Starts one Postgres cluster and one redis-server for the whole run; each test file then takes its own database and key prefix. */
export async function setup(project: TestProject): Promise<void> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-test-"));
  fs.chmodSync(dir, 0o755);
  services = await startServices({
    dataDir: dir,
    durable: false,
    databaseUrl: process.env.TEST_DATABASE_URL,
    redisUrl: process.env.TEST_REDIS_URL,
  });
  // Test files create and drop their own databases with the superuser; the code under test runs as
  // the app's role, which owns the template's objects (migrated as that role) and so its clones'.
  const adminUrl = services.adminUrl ?? services.databaseUrl;
  const templateUrl = services.adminUrl
    ? await ensureAppDatabase(adminUrl, TEMPLATE_DATABASE, APP_ROLE, new URL(services.databaseUrl).password)
    : await ensureDatabase(adminUrl, TEMPLATE_DATABASE);
  await migrateToLatest(templateUrl);
  project.provide("pgAdminUrl", adminUrl);
  project.provide("pgAppUrl", templateUrl);
  project.provide("redisUrl", services.redisUrl);
  project.provide("templateDatabase", TEMPLATE_DATABASE);
}

export async function teardown(): Promise<void> {
  await services?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}
