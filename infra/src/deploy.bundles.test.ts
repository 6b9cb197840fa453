import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import pg from "pg";
import { ensureDatabase } from "@fixloop/db";
import { pickPort } from "@fixloop/testkit/services";
import { TEST_ENCRYPTION_KEYS } from "@fixloop/testkit";
import { ROOT } from "./paths";

// The processes the image runs, built the image's way (infra/docker/bundle.mjs) beside where the
// image keeps them, and started on plain node: no TypeScript loader, no tsx.
const tag = `image-test-${process.pid}`;
const out = {
  worker: path.join(ROOT, "worker/dist", `${tag}.mjs`),
  api: path.join(ROOT, "api/dist", `${tag}.mjs`),
  migrate: path.join(ROOT, "infra/dist", `${tag}.mjs`),
};
/** Only what a container's environment holds: no NODE_OPTIONS, no loader from the test runner. */
const bareEnv = (extra: Record<string, string>) => ({ PATH: process.env.PATH ?? "", NODE_ENV: "production", ...extra });
const children: ChildProcess[] = [];

beforeAll(() => {
  const build = spawnSync(
    process.execPath,
    [path.join(ROOT, "infra/docker/bundle.mjs"), ...Object.entries(out).map(([role, file]) => `${role}=${file}`)],
    { encoding: "utf8" },
  );
  expect(build.status, build.stderr).toBe(0);
});

afterAll(() => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  for (const file of Object.values(out)) {
    fs.rmSync(file, { force: true });
    fs.rmSync(`${file}.map`, { force: true });
  }
});

function run(file: string, env: Record<string, string>, timeoutMs = 20_000) {
  return spawnSync(process.execPath, [file], { encoding: "utf8", env: bareEnv(env), timeout: timeoutMs });
}

describe("the image's bundles", () => {
  it("keep the workspace's code inside and load every import on plain node", () => {
    for (const file of Object.values(out)) {
      const bundled = fs.readFileSync(file, "utf8");
      expect(bundled, file).not.toMatch(/from "@fixloop\/|from "tsx/);
    }
    // The migrations are inside the API's and the migrator's bundles, not imported from the source tree.
    for (const file of [out.api, out.migrate]) {
      const bundled = fs.readFileSync(file, "utf8");
      expect(bundled, file).not.toContain('import("./migrations/');
      expect(bundled, file).toContain("login_codes");
    }
    // Files the worker finds beside its source (the localize thread's entry) are where the bundle looks.
    const beside = [...fs.readFileSync(out.worker, "utf8").matchAll(/new URL\("(\.\/[^"]+)", "(file:[^"]+)"\)/g)];
    expect(beside.length).toBeGreaterThan(0);
    for (const [, rel, base] of beside) expect(fs.existsSync(new URL(rel ?? "", base)), rel).toBe(true);
    // No settings: the worker gets as far as validating them, so every import resolved.
    const worker = run(out.worker, {});
    expect(worker.status).not.toBe(0);
    expect(worker.stderr).toContain("Invalid worker configuration");
    expect(worker.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|ERR_UNKNOWN_FILE_EXTENSION/);
  });

  it("migrate a new database from the compiled migrator, as the deployment's migration job does", async () => {
    const admin = inject("pgAdminUrl");
    const name = `image_${process.pid}`;
    // The job's own way: the superuser creates the app's role and database, then it migrates as that role.
    const dbUrl = new URL(admin);
    dbUrl.username = "fixloop_image_test";
    dbUrl.password = "image-test-password";
    dbUrl.pathname = `/${name}`;
    const migrate = run(out.migrate, {
      DATABASE_URL: dbUrl.href,
      DATABASE_ADMIN_URL: admin,
      TOKEN_ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    });
    expect(migrate.status, migrate.stderr).toBe(0);
    expect(migrate.stdout).toContain(`Database ${name} belongs to role fixloop_image_test`);
    expect(migrate.stdout).toMatch(/Applied: 2026-11-21T00-00-initial-schema, /);

    const client = new pg.Client({ connectionString: dbUrl.href });
    await client.connect();
    try {
      const applied = await client.query<{ n: string }>("select count(*) as n from kysely_migration");
      const files = fs.readdirSync(path.join(ROOT, "db/src/migrations")).filter((f) => f.endsWith(".ts"));
      expect(Number(applied.rows[0]?.n)).toBe(files.length);
      const owner = await client.query<{ owner: string }>(
        "select tableowner as owner from pg_tables where tablename = 'solve_runs'",
      );
      expect(owner.rows[0]?.owner).toBe("fixloop_image_test");
    } finally {
      await client.end();
    }
    const again = run(out.migrate, { DATABASE_URL: dbUrl.href, TOKEN_ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toContain("Database schema is up to date.");
  });

  it("serve /api/health and the web app from the compiled API", async () => {
    const url = await ensureDatabase(inject("pgAdminUrl"), `image_api_${process.pid}`);
    const port = await pickPort();
    const api = spawn(process.execPath, [out.api], {
      env: bareEnv({
        DATABASE_URL: url,
        REDIS_URL: inject("redisUrl"),
        QUEUE_PREFIX: `image-test-${process.pid}`,
        TOKEN_ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
        HOST: "127.0.0.1",
        PORT: String(port),
        LOG_LEVEL: "warn",
      }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(api);
    let stderr = "";
    api.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => api.once("exit", (code) => resolve(code)));

    let health: { status: string; checks: Record<string, string> } | undefined;
    // Until both services answer ok: on a loaded host the first check of a cold pool can take
    // longer than the health route's 2 s and read "timeout".
    const up = () => health?.checks.database === "ok" && health.checks.redis === "ok";
    for (let i = 0; i < 150 && !up() && api.exitCode === null; i++) {
      health = await fetch(`http://127.0.0.1:${port}/api/health`)
        .then((r) => r.json() as Promise<typeof health>)
        .catch(() => undefined);
      if (!up()) await new Promise((r) => setTimeout(r, 100));
    }
    expect(health, stderr).toBeDefined();
    // No worker is running here: the queues have nobody serving them, the services answer.
    expect(health?.checks).toMatchObject({ database: "ok", redis: "ok", workers: "none" });
    expect(health?.status).toBe("degraded");
    // The web app is found where the source tree keeps it (api/src/app.ts's ../../web/dist), not
    // beside the bundle: the page the API serves is the build's own.
    const index = path.join(ROOT, "web/dist/index.html");
    const page = await fetch(`http://127.0.0.1:${port}/`);
    // A checkout without `npm run build` has no web app to serve (CI builds it first).
    if (fs.existsSync(index)) expect(await page.text()).toBe(fs.readFileSync(index, "utf8"));
    expect(fs.readFileSync(out.api, "utf8")).toContain(`"${pathToFileURL(path.join(ROOT, "api/src/app.ts")).href}"`);
    // It migrated the empty database at start, from the same static index.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const applied = await client.query<{ n: string }>("select count(*) as n from kysely_migration");
    await client.end();
    expect(Number(applied.rows[0]?.n)).toBeGreaterThan(0);

    api.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
