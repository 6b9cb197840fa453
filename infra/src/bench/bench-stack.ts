import fs from "node:fs";
import path from "node:path";
import { createDb, type Db } from "@fixloop/db";
import { startStack, type Stack } from "../stack";
import { spawnTs, type Child } from "@fixloop/testkit/processes";
import type { BenchContext } from "./section.types";

export interface BenchStack {
  stack: Stack;
  db: Db;
  prefix: string;
  /** API base URL reachable from this process. */
  api: string;
  /** Signs in through the GitHub stand-in (OAuth round trip over HTTP) with an ENTERPRISE plan; returns session headers. */
  signIn(login: string): Promise<{ userId: string; headers: { cookie: string; origin: string } }>;
  /** Starts a worker process on this stack's settings. */
  startWorker(env?: Record<string, string>): Child;
  stop(): Promise<void>;
}

/** The product as `npm start` runs it (API process and stand-ins, no workers) on the bench's Postgres and Redis. */
export async function startBenchStack(ctx: BenchContext, name: string): Promise<BenchStack> {
  const dataDir = path.join(ctx.dir, `stack-${name}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const prefix = `bench-${name}`;
  const env = {
    DATABASE_URL: ctx.services.databaseUrl,
    REDIS_URL: ctx.services.redisUrl,
    QUEUE_PREFIX: prefix,
    RATE_LIMITS_ENABLED: "false",
    // The live-stream section opens 1,000 streams as one user: the per-user abuse cap would refuse them.
    SSE_MAX_STREAMS_PER_USER: "5000",
    LOG_LEVEL: "warn",
  };
  const log = (s: string, l: string) => process.env.BENCH_LOG && process.stderr.write(`  [${s}] ${l}\n`);
  const stack = await startStack({ dataDir, port: 0, workers: 0, buildWeb: "never", env, log });
  const db = createDb(ctx.services.databaseUrl, { max: 20 });
  const api = stack.url.replace("localhost", "127.0.0.1");
  const workers: Child[] = [];

  async function signIn(login: string) {
    const start = await fetch(`${api}/api/auth/github`, { redirect: "manual" });
    const authorize = start.headers.get("location");
    if (!authorize) throw new Error(`/api/auth/github answered ${start.status}`);
    const binding = start.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const form = new URLSearchParams(new URL(authorize).searchParams);
    form.set("login", login);
    const granted = await fetch(new URL("/login/oauth/authorize", stack.env.GITHUB_WEB_URL), {
      method: "POST",
      body: form,
      redirect: "manual",
    });
    const back = new URL(granted.headers.get("location") ?? "http://invalid/");
    const cb = await fetch(`${api}${back.pathname}${back.search}`, {
      headers: { cookie: binding },
      redirect: "manual",
    });
    const code = new URL(cb.headers.get("location") ?? "http://x/").searchParams.get("token");
    if (!code) throw new Error(`sign-in callback answered ${cb.status}`);
    const loginBinding = cb.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const res = await fetch(`${api}/api/auth/session`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: stack.url, cookie: loginBinding },
      body: JSON.stringify({ token: code }),
    });
    // The answer also clears the one-time login cookie; keep the session's.
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(";")[0] ?? "")
      .find((c) => c.startsWith("fixloop_session="));
    const body = (await res.json()) as { user: { _id: string } };
    if (!res.ok || !cookie) throw new Error(`session exchange answered ${res.status}`);
    const userId = body.user._id;
    await db
      .insertInto("subscriptions")
      .values({ user_id: userId, plan: "ENTERPRISE", status: "active" })
      .onConflict((oc) => oc.column("user_id").doUpdateSet({ plan: "ENTERPRISE", status: "active" }))
      .execute();
    return { userId, headers: { cookie, origin: stack.url } };
  }

  return {
    stack,
    db,
    prefix,
    api,
    signIn,
    startWorker(extra = {}) {
      const w = spawnTs(`worker-${workers.length + 1}`, "worker/src/main.ts", { ...stack.env, ...extra }, log);
      workers.push(w);
      return w;
    },
    async stop() {
      await Promise.all(workers.map((w) => w.stop(5_000)));
      await stack.stop();
      await db.destroy();
    },
  };
}
