import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "@fixloop/db";
import { APP_ROLE, ensureAppDatabase, ensureDatabase, startServices } from "./index";
import { ROOT } from "../paths";
import { startEmbeddedPostgres } from "./postgres";
import { createTestDatabase } from "../../test/context";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-auth-"));
fs.chmodSync(dir, 0o755);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function query(url: string, text: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await c.query(text);
  } finally {
    await c.end();
  }
}

/** The SQLSTATE a login or statement fails with ("" when it succeeds). */
const failure = (p: Promise<unknown>) =>
  p.then(
    () => "",
    (e: { code?: string }) => e.code ?? String(e),
  );

function as(url: string, user: string, password: string, database = "postgres") {
  const u = new URL(url);
  u.username = user;
  u.password = password;
  u.pathname = `/${database}`;
  return u.toString();
}

/** One raw RESP command without AUTH: what a process that only knows the port gets. */
function rawRedis(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = net.connect(port, "127.0.0.1", () => sock.write(`${command}\r\n`));
    sock.once("data", (d) => {
      sock.destroy();
      resolve(d.toString());
    });
    sock.once("error", reject);
  });
}

/** A cluster as earlier versions left it: superuser fixloop/fixloop, the app's tables owned by it. */
async function legacyCluster(dataDir: string, hba?: string) {
  const old = await startEmbeddedPostgres({ dataDir: path.join(dataDir, "postgres"), password: "fixloop" });
  const db = await ensureDatabase(old.url, "fixloop");
  await migrateToLatest(db);
  await query(db, "create table kept (v text); insert into kept values ('from before')");
  if (hba) fs.writeFileSync(path.join(dataDir, "postgres", "pg_hba.conf"), hba);
  await old.stop();
}

describe("service logins", () => {
  it("runs the app as a role that owns its database but is no superuser, behind generated passwords", async () => {
    const services = await startServices({ dataDir: path.join(dir, "fresh") });
    try {
      const secrets = JSON.parse(fs.readFileSync(path.join(dir, "fresh", "secrets.json"), "utf8"));
      expect(fs.statSync(path.join(dir, "fresh", "secrets.json")).mode & 0o077).toBe(0);
      const app = new URL(services.databaseUrl);
      expect(app.username).toBe(APP_ROLE);
      expect(services.databaseUrl).not.toContain(secrets.POSTGRES_ADMIN_PASSWORD);
      await migrateToLatest(services.databaseUrl);
      const { rows } = await query(
        services.databaseUrl,
        "select r.rolsuper, r.rolcreaterole, r.rolcreatedb, pg_get_userbyid(d.datdba) as owner " +
          "from pg_roles r, pg_database d where r.rolname = current_user and d.datname = current_database()",
      );
      expect(rows).toEqual([{ rolsuper: false, rolcreaterole: false, rolcreatedb: false, owner: APP_ROLE }]);
      const marker = path.join(dir, "pwned");
      expect(await failure(query(services.databaseUrl, `copy (select 1) to program 'touch ${marker}'`))).toBe("42501");
      expect(await failure(query(services.databaseUrl, "create role intruder superuser"))).toBe("42501");
      expect(fs.existsSync(marker)).toBe(false);
      // The defaults of earlier versions log in to nothing.
      for (const [user, password] of [
        ["fixloop", "fixloop"],
        [APP_ROLE, "fixloop"],
        ["postgres", "postgres"],
      ] as const)
        expect(await failure(query(as(services.databaseUrl, user, password), "select 1")), user).toBe("28P01");

      const redis = services.redis;
      expect(redis).toBeDefined();
      expect(await rawRedis(redis!.port, "SET planted 1")).toMatch(/^-NOAUTH/);
      expect(await rawRedis(redis!.port, "CONFIG GET requirepass")).toMatch(/^-NOAUTH/);
      expect(services.redisUrl).toContain(secrets.REDIS_PASSWORD);
      const client = new Redis(services.redisUrl);
      expect(await client.set("ok", "1")).toBe("OK");
      expect(await client.get("planted")).toBeNull();
      client.disconnect();
    } finally {
      await services.stop();
    }
  });

  it("rotates an earlier version's fixloop/fixloop superuser and trust rules, keeping its data", async () => {
    const cases = {
      "former password": undefined,
      trust: "local all all trust\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n",
    };
    for (const [name, hba] of Object.entries(cases)) {
      const dataDir = path.join(dir, `legacy-${name.replace(/\W/g, "")}`);
      await legacyCluster(dataDir, hba);
      const services = await startServices({ dataDir, redisUrl: "unused" });
      try {
        const url = services.databaseUrl;
        expect(await failure(query(as(url, "fixloop", "fixloop"), "select 1")), name).toBe("28P01");
        expect(await failure(query(as(url, APP_ROLE, "wrong"), "select 1")), name).toBe("28P01");
        await migrateToLatest(url);
        expect((await query(url, "select v from kept")).rows).toEqual([{ v: "from before" }]);
        await query(url, "alter table kept add column since int; alter table users add column probe int");
        const { rows } = await query(url, "select rolsuper from pg_roles where rolname = current_user");
        expect(rows, name).toEqual([{ rolsuper: false }]);
      } finally {
        await services.stop();
      }
    }
  });

  it("gives each test file a database owned by, and used as, the app's non-superuser role", async () => {
    const { url } = await createTestDatabase();
    const { rows } = await query(
      url,
      "select current_user as role, r.rolsuper, pg_get_userbyid(c.relowner) as owner from pg_roles r, pg_class c " +
        "where r.rolname = current_user and c.relname = 'users'",
    );
    expect(rows).toEqual([{ role: APP_ROLE, rolsuper: false, owner: APP_ROLE }]);
  });

  it("lets the compose migration job create the app's role from DATABASE_ADMIN_URL on an earlier volume", async () => {
    const pgDir = path.join(dir, "compose", "postgres");
    const admin = await startEmbeddedPostgres({ dataDir: pgDir, password: "admin-secret" });
    try {
      // An earlier volume: the superuser owns the database and its tables.
      await migrateToLatest(await ensureDatabase(admin.url, "fixloop"));
      const appUrl = as(admin.url, APP_ROLE, "app-secret", "fixloop");
      const run = spawnSync("npx", ["tsx", "infra/src/migrate.ts"], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, DATABASE_URL: appUrl, DATABASE_ADMIN_URL: as(admin.url, "fixloop", "admin-secret") },
      });
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain(`Database fixloop belongs to role ${APP_ROLE} (not a superuser).`);
      const { rows } = await query(
        appUrl,
        "select r.rolsuper, pg_get_userbyid(c.relowner) as owner from pg_roles r, pg_class c " +
          "where r.rolname = current_user and c.relname = 'users'",
      );
      expect(rows).toEqual([{ rolsuper: false, owner: APP_ROLE }]);
      // Naming the superuser as the app's role would demote it: refused.
      await expect(ensureAppDatabase(admin.url, "fixloop", "fixloop", "x")).rejects.toThrow(/must differ/);
    } finally {
      await admin.stop();
    }
  });
});
