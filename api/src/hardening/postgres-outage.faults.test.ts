import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, createTokenCipher, migrateToLatest, type Db } from "@fixloop/db";
import { ensureDatabase, startEmbeddedPostgres, type RunningPostgres } from "@fixloop/testkit/services";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { startGithubSandbox, type GithubSandbox } from "@fixloop/testkit/sandbox";
import { testPrefix, testRedisUrl } from "@fixloop/testkit";
import { createQueues, redisConnection, createLogger } from "@fixloop/runtime";
import { loadWorkerEnv } from "@fixloop/worker";
import { startWorkers, type RunningWorkers } from "@fixloop/worker";
import { createApp } from "../app";
import type { AppDeps } from "../deps";
import { loadApiEnv } from "../env";
import { loginAs, TEST_ENCRYPTION_KEYS } from "../../test/testing";
import { insertIssue } from "@fixloop/testkit";
import { until } from "../../test/faults.testkit";

/**
 * Postgres (our own embedded cluster for this file) stopped for 10 s while solves run and
 * requests keep coming, then started again on the same data.
 */
const OUTAGE_MS = 10_000;

let dataDir: string;
let postgres: RunningPostgres;
let models: ModelSandbox;
let github: GithubSandbox;
let db: Db;
let redis: Redis;
let deps: AppDeps;
let workers: RunningWorkers;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-pg-fault-"));
  fs.chmodSync(dataDir, 0o755); // initdb runs as the postgres user when the tests run as root
  postgres = await startEmbeddedPostgres({ dataDir: path.join(dataDir, "pg"), durable: true });
  const url = await ensureDatabase(postgres.url, "fixloop");
  await migrateToLatest(url);
  models = await startModelSandbox();
  github = await startGithubSandbox({ dataDir: path.join(dataDir, "github") });
  const prefix = testPrefix();
  const env = loadApiEnv({
    NODE_ENV: "test",
    DATABASE_URL: url,
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: "silent",
    TOKEN_ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    PUBLIC_URL: "http://localhost:3000",
    JOB_WAIT_SECONDS: "0",
    RATE_LIMITS_ENABLED: "false",
    GITHUB_API_URL: github.url,
    ...models.env,
  });
  db = createDb(url, { max: 20 });
  redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: null });
  const queues = createQueues(redisConnection(env.REDIS_URL), prefix);
  deps = { env, db, redis, queues, logger: createLogger("silent", "api") };
  app = createApp(deps, { serveWeb: false });
  const workerEnv = loadWorkerEnv({
    NODE_ENV: "test",
    DATABASE_URL: url,
    REDIS_URL: env.REDIS_URL,
    QUEUE_PREFIX: prefix,
    TOKEN_ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    GITHUB_API_URL: github.url,
    // Many runs of one user are under way when Postgres goes down; the per-user cap is tested on its own.
    MAX_ACTIVE_RUNS_PER_USER: "64",
    ...models.env,
  });
  workers = startWorkers(
    {
      env: workerEnv,
      db,
      redis,
      queues,
      logger: pino({ level: "silent" }),
      cipher: createTokenCipher(TEST_ENCRYPTION_KEYS),
    },
    { queues: ["solve"], concurrency: 10 },
  );
}, 120_000);
afterAll(async () => {
  await workers?.close();
  await deps?.queues.close();
  redis?.disconnect();
  await db?.destroy();
  await postgres?.stop();
  await models?.stop();
  await github?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("Postgres unavailable for 10 s", () => {
  it("answers 503 with a clear error meanwhile, recovers by itself and leaves no half-written run", async () => {
    const me = await loginAs(deps, { username: "octocat" });
    const headers = { ...me.headers, "content-type": "application/json" };
    const sealed = createTokenCipher(TEST_ENCRYPTION_KEYS).encrypt(
      github.control.issueToken("octocat", ["read:user", "public_repo"]),
      me.user.id,
    );
    await db
      .insertInto("github_accounts")
      .values({
        user_id: me.user.id,
        github_id: 1,
        login: "octocat",
        access_token_enc: sealed.value,
        key_id: sealed.keyId,
        scopes: ["read:user", "public_repo"],
      })
      .execute();
    const issues = await Promise.all(
      Array.from({ length: 8 }, (_, i) => insertIssue(db, me.user.id, { number: 40 + i })),
    );
    models.control.latency(4_000);
    const inFlight: string[] = [];
    for (const issue of issues.slice(0, 5)) {
      const res = await app.request("/api/ai/generate-solution", {
        method: "POST",
        headers,
        body: JSON.stringify({ issueId: issue.id }),
      });
      expect(res.status).toBe(202);
      inFlight.push(((await res.json()) as { runId: string }).runId);
    }
    await until("runs generating", async () => models.control.requests.length >= 5, 30_000);

    await postgres.stop();
    const downAt = Date.now();
    const answers: { status: number; code?: string; message?: string }[] = [];
    const attempted: string[] = [];
    while (Date.now() - downAt < OUTAGE_MS) {
      const issue = issues[5 + (answers.length % 3)];
      if (!issue) throw new Error("no issue");
      attempted.push(issue.id);
      const calls = [
        app.request("/api/issues", { headers }),
        app.request("/api/ai/generate-solution", {
          method: "POST",
          headers,
          body: JSON.stringify({ issueId: issue.id }),
        }),
        app.request(`/api/runs/${inFlight[0]}`, { headers }),
      ];
      for (const res of await Promise.all(calls)) {
        const body = (await res.json().catch(() => ({}))) as { error?: { code: string; message: string } };
        answers.push({ status: res.status, code: body.error?.code, message: body.error?.message });
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    postgres = await startEmbeddedPostgres({ dataDir: path.join(dataDir, "pg"), port: postgres.port, durable: true });
    const upAt = Date.now();
    await until(
      "the API answers again",
      async () => (await app.request("/api/issues", { headers })).status === 200,
      30_000,
      100,
    );
    const recoveryMs = Date.now() - upAt;
    models.control.latency(0);

    const runs = () => db.selectFrom("solve_runs").selectAll().execute();
    await until(
      "every run settled",
      async () => (await runs()).every((r) => r.status === "completed" || r.status === "failed"),
      120_000,
      500,
    );
    const all = await runs();
    const figures = {
      outageSeconds: OUTAGE_MS / 1000,
      requestsDuringOutage: answers.length,
      answered503: answers.filter((a) => a.status === 503).length,
      otherStatuses: answers.filter((a) => a.status !== 503).map((a) => a.status),
      recoveryMs,
      runsInFlight: inFlight.length,
      runsLost: inFlight.filter((id) => !all.find((r) => r.id === id && r.status === "completed")).length,
      runsCreatedDuringOutage: all.filter((r) => attempted.includes(r.issue_id)).length,
    };
    console.log(`postgres outage figures: ${JSON.stringify(figures)}`);
    for (const a of answers)
      expect(a).toEqual({ status: 503, code: "service.unavailable", message: expect.stringMatching(/unavailable/) });
    expect(figures.runsLost).toBe(0);
    // Nothing half-written: requests refused during the outage left no run, and every run that exists is whole.
    expect(figures.runsCreatedDuringOutage).toBe(0);
    for (const r of all) {
      expect(r.quota_state).toBe("charged");
      const solution = await db.selectFrom("solutions").select("id").where("run_id", "=", r.id).execute();
      expect(solution).toHaveLength(1);
      const steps = await db.selectFrom("run_steps").select("status").where("run_id", "=", r.id).execute();
      expect(steps.map((s) => s.status)).toEqual(Array(5).fill("completed"));
    }
    const usage = await db
      .selectFrom("usage_counters")
      .select("used")
      .where("user_id", "=", me.user.id)
      .executeTakeFirstOrThrow();
    expect(usage.used).toBe(all.length);
  }, 240_000);
});
