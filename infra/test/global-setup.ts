import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { migrateToLatest } from "@fixloop/db";
import { ensureDatabase, startServices, type Services } from "../src/services";

declare module "vitest" {
  export interface ProvidedContext {
    pgAdminUrl: string;
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
  // Test files create and drop their own databases: they get the superuser, `npm start` never does.
  const adminUrl = services.adminUrl ?? services.databaseUrl;
  const templateUrl = await ensureDatabase(adminUrl, TEMPLATE_DATABASE);
  await migrateToLatest(templateUrl);
  project.provide("pgAdminUrl", adminUrl);
  project.provide("redisUrl", services.redisUrl);
  project.provide("templateDatabase", TEMPLATE_DATABASE);
}

export async function teardown(): Promise<void> {
  await services?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}
