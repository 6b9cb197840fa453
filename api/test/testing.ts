import type { Logger } from "@fixloop/runtime";
import crypto from "node:crypto";
import { afterAll } from "vitest";
import { createTestDatabase, createTestRedis, TEST_ENCRYPTION_KEYS, testPrefix, testRedisUrl } from "@fixloop/testkit";
import pino from "pino";
import { hc } from "hono/client";
import { createTokenCipher } from "@fixloop/db";
import { createQueues, redisConnection, createLogger } from "@fixloop/runtime";
import { ErrorBody, type QueueName } from "@fixloop/contract";
import { z } from "zod";
import { loadWorkerEnv, startWorkers } from "@fixloop/worker";
import { createApp, type AppType } from "../src/app";
import type { AppDeps } from "../src/deps";
import { loadApiEnv, type ApiEnv } from "../src/env";
import { SESSION_COOKIE, hashSecret, randomSecret } from "../src/auth/secrets";

export { TEST_ENCRYPTION_KEYS };
export { SESSION_COOKIE, hashSecret } from "../src/auth/secrets";

/**
 * A real app on this test file's own database and queue prefix. `env` overrides settings,
 * e.g. the GitHub stand-in's URL.
 */
export async function createTestApp(env: Partial<Record<keyof ApiEnv, string>> = {}, opts: { logger?: Logger } = {}) {
  const { db, url } = await createTestDatabase();
  const redis = createTestRedis();
  const prefix = testPrefix();
  const apiEnv = loadApiEnv({
    NODE_ENV: "test",
    DATABASE_URL: url,
    REDIS_URL: testRedisUrl(),
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: "silent",
    TOKEN_ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    PUBLIC_URL: "http://localhost:3000",
    JOB_WAIT_SECONDS: "10",
    RATE_LIMITS_ENABLED: "false",
    ...env,
  });
  const queues = createQueues(redisConnection(apiEnv.REDIS_URL), prefix);
  const deps: AppDeps = {
    env: apiEnv,
    db,
    redis,
    queues,
    logger: opts.logger ?? createLogger(apiEnv.LOG_LEVEL, "api"),
  };
  afterAll(async () => {
    await queues.close();
  });
  const app = createApp(deps, { serveWeb: false });
  return {
    app,
    deps,
    db,
    redis,
    prefix,
    loginAs: (u?: Partial<TestUser>) => loginAs(deps, u),
    client: (headers?: Record<string, string>) => testClient(app, headers),
  };
}

/**
 * The API's typed client (`hc<AppType>`, as the web uses it) over `app.request`: paths, params,
 * bodies and answers are checked against the routes, with no network in between. `headers`
 * (a signed-in browser's, say) go with every request.
 *
 *   const api = testClient(app, me.headers);
 *   const res = await api.validations[":id"].$get({ param: { id } });
 *   if (res.status === 200) (await res.json()).solution;
 */
export function testClient(
  app: { request: (input: string | Request, init?: RequestInit) => Response | Promise<Response> },
  headers: Record<string, string> = {},
) {
  return hc<AppType>("http://localhost/api", {
    headers,
    fetch: (input: RequestInfo | URL, init?: RequestInit) =>
      app.request(input instanceof Request ? input : String(input), init),
  });
}

export type TestClient = ReturnType<typeof testClient>;

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/** In-process workers serving `queues` (default all) on a test app's database, Redis and queue prefix; closed after the file. */
export function startTestWorkers(t: TestApp, queues?: QueueName[]) {
  const env = loadWorkerEnv({
    NODE_ENV: "test",
    DATABASE_URL: t.deps.env.DATABASE_URL,
    REDIS_URL: t.deps.env.REDIS_URL,
    QUEUE_PREFIX: t.prefix,
    TOKEN_ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
    // As many as these workers take at once: one user's runs are not held back here.
    MAX_ACTIVE_RUNS_PER_USER: "2",
    // No timed pull-request poll: its ticks would add jobs to the queues tests count.
    PR_POLL_INTERVAL_SECONDS: "0",
  });
  const ctx = {
    env,
    db: t.db,
    redis: t.redis,
    queues: t.deps.queues,
    logger: pino({ level: "silent" }),
    cipher: createTokenCipher(TEST_ENCRYPTION_KEYS),
  };
  const workers = startWorkers(ctx, { queues, concurrency: 2 });
  afterAll(() => workers.close());
  return workers;
}

export interface TestUser {
  githubId: number;
  username: string;
  email: string;
}

/** Creates (or reuses) a user with a live session; returns the headers a signed-in browser would send. */
export async function loginAs(deps: AppDeps, u: Partial<TestUser> = {}) {
  const githubId = u.githubId ?? crypto.randomInt(1, 2 ** 31);
  const username = u.username ?? `user${githubId}`;
  const user = await deps.db
    .insertInto("users")
    .values({ github_id: githubId, username, email: u.email ?? `${username}@example.com`, avatar_url: null })
    .onConflict((oc) => oc.column("github_id").doUpdateSet({ username }))
    .returning(["id", "username"])
    .executeTakeFirstOrThrow();
  const token = randomSecret();
  await deps.db
    .insertInto("sessions")
    .values({ token_hash: hashSecret(token), user_id: user.id, expires_at: new Date(Date.now() + 86_400_000) })
    .execute();
  const headers = { cookie: `${SESSION_COOKIE}=${token}`, origin: "http://localhost:3000" };
  return { user, headers, token };
}

// Strict: an answer with anything beside `error`, or an error with more than its code and message, fails.
const ErrorAnswer = z.object({ error: ErrorBody.strict() }).strict();

/** The `{ error: { code, message } }` of a refused request, exactly, read and checked (not cast). */
export async function errorOf(res: { json(): Promise<unknown> }): Promise<ErrorBody> {
  return ErrorAnswer.parse(await res.json()).error;
}
