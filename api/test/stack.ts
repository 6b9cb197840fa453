import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll } from "vitest";
import { createTokenCipher } from "@fixloop/db";
import { createTestApp, SESSION_COOKIE, TEST_ENCRYPTION_KEYS } from "./testing";
import type { QueueName } from "@fixloop/contract";
import { createLogger } from "@fixloop/runtime";
import type { WorkerContext } from "@fixloop/worker";
import { loadWorkerEnv } from "@fixloop/worker";
import { startWorkers, type RunningWorkers } from "@fixloop/worker";
import { startGithubSandbox, type GithubSandboxControl } from "@fixloop/testkit/sandbox";

export interface TestStackOptions {
  /** Settings for both the app and the workers (e.g. model stand-in URLs); they override the stack's own. */
  env?: Record<string, string>;
  /** Queues served by in-process workers; default all; `false` starts none. */
  workers?: QueueName[] | false;
  /** Settings read off the GitHub stand-in once it runs (its App's id and key, say). */
  envOf?: (control: GithubSandboxControl) => Record<string, string>;
  /** Level of the captured logs (api and workers); default "debug" so leaks are visible to tests. */
  logLevel?: "debug" | "info" | "warn";
}

export interface SignedIn {
  /** Headers a signed-in browser sends: the session cookie and the origin. */
  headers: { cookie: string; origin: string };
  user: { _id: string; username: string; email: string | null };
}

/**
 * A whole Fixloop for one test file: the app (own DB and queue prefix, see createTestApp), a
 * GitHub stand-in on a temporary data dir, and in-process workers on the same DB, Redis and
 * prefix. Everything stops after the file. `logs` holds every api/worker log line as JSON text.
 *
 *   const stack = await createTestStack();
 *   const { headers } = await stack.signIn("octocat", { scopes: ["public_repo"] });
 *   await stack.app.request("/api/github/repositories", { headers });
 */
export async function createTestStack(opts: TestStackOptions = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-gh-"));
  const github = await startGithubSandbox({ dataDir });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const logger = createLogger(opts.logLevel ?? "debug", undefined, sink);
  const publicUrl = "http://localhost:3000";
  const env = {
    GITHUB_API_URL: github.url,
    GITHUB_WEB_URL: github.url,
    GITHUB_CLIENT_ID: github.clientId,
    GITHUB_CLIENT_SECRET: github.clientSecret,
    PUBLIC_URL: publicUrl,
    ...opts.envOf?.(github.control),
    ...opts.env,
  };
  const t = await createTestApp(env, { logger: logger.child({ name: "api" }) });
  const ctx: WorkerContext = {
    env: loadWorkerEnv({
      NODE_ENV: "test",
      DATABASE_URL: t.deps.env.DATABASE_URL,
      REDIS_URL: t.deps.env.REDIS_URL,
      TOKEN_ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
      WORKSPACE_DIR: path.join(dataDir, "workspaces"),
      // As many as the in-process workers take at once: one user's runs are not held back unless a test sets a cap.
      MAX_ACTIVE_RUNS_PER_USER: "4",
      // No timed pull-request poll unless a test asks: its ticks would add GitHub reads to others' counts.
      PR_POLL_INTERVAL_SECONDS: "0",
      ...env,
      QUEUE_PREFIX: t.prefix,
    }),
    db: t.db,
    redis: t.redis,
    queues: t.deps.queues,
    logger: logger.child({ name: "worker" }),
    cipher: createTokenCipher(TEST_ENCRYPTION_KEYS),
  };
  const workers: RunningWorkers | null =
    opts.workers === false ? null : startWorkers(ctx, { queues: opts.workers, concurrency: 4 });
  afterAll(async () => {
    await workers?.close();
    await github.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Runs one OAuth round trip started at `startPath`: app → stand-in authorize form → app callback. */
  async function oauth(startPath: string, login: string, headers: Record<string, string> = {}): Promise<Response> {
    const start = await t.app.request(startPath, { headers });
    const authorize = start.headers.get("location");
    if (start.status !== 302 || !authorize)
      throw new Error(`${startPath} answered ${start.status}: ${await start.text()}`);
    const binding = start.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const form = new URLSearchParams(new URL(authorize).searchParams);
    form.set("login", login);
    const granted = await fetch(new URL("/login/oauth/authorize", github.url), {
      method: "POST",
      body: form,
      redirect: "manual",
    });
    const back = granted.headers.get("location");
    if (!back) throw new Error(`sandbox authorize answered ${granted.status}: ${await granted.text()}`);
    const cb = new URL(back);
    const cookie = [headers.cookie, binding].filter(Boolean).join("; ");
    return t.app.request(cb.pathname + cb.search, { headers: { ...headers, cookie } });
  }

  /** The real sign-in: OAuth via the stand-in, login code exchanged for a session cookie. `scopes` beyond sign-in run repository authorization too. */
  async function signIn(login: string, o: { scopes?: string[] } = {}): Promise<SignedIn> {
    const cb = await oauth("/api/auth/github", login);
    const code = new URL(cb.headers.get("location") ?? "http://x/").searchParams.get("token");
    if (!code) throw new Error(`sign-in callback answered ${cb.status} ${cb.headers.get("location")}`);
    const loginBinding = cb.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const res = await t.app.request("/api/auth/session", {
      method: "POST",
      headers: { "content-type": "application/json", origin: publicUrl, cookie: loginBinding },
      body: JSON.stringify({ token: code }),
    });
    const session = res.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${SESSION_COOKIE}=`))
      ?.split(";")[0];
    if (res.status !== 200 || !session) throw new Error(`session exchange answered ${res.status}: ${await res.text()}`);
    const body = (await res.json()) as { user: SignedIn["user"] };
    const headers = { cookie: session, origin: publicUrl };
    const scopes = o.scopes ?? [];
    if (scopes.includes("repo") || scopes.includes("public_repo"))
      await authorizeRepos(headers, login, { private: scopes.includes("repo") });
    return { headers, user: body.user };
  }

  /** Repository authorization (adds public_repo, or repo when private) for a signed-in browser. */
  async function authorizeRepos(headers: SignedIn["headers"], login: string, o: { private?: boolean } = {}) {
    const res = await oauth(`/api/auth/github/repos?private=${o.private ? "true" : "false"}`, login, headers);
    const to = res.headers.get("location") ?? "";
    if (!to.includes("authorized=true")) throw new Error(`repository authorization answered ${res.status} ${to}`);
  }

  return { ...t, github, ctx, workers, logs, publicUrl, signIn, authorizeRepos, oauth };
}

export type TestStack = Awaited<ReturnType<typeof createTestStack>>;
