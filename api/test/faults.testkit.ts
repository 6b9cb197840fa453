import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import url from "node:url";
import { afterAll } from "vitest";
import type { Db } from "@fixloop/db";
import { eventually } from "@fixloop/testkit";
import { TEST_ENCRYPTION_KEYS } from "./testing";
import { withPlan } from "./fixtures";

const ROOT = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "../..");

export interface WorkerProcessEnv {
  DATABASE_URL: string;
  REDIS_URL: string;
  QUEUE_PREFIX: string;
  GITHUB_API_URL: string;
  [key: string]: string;
}

/** Spawns real worker processes (node + tsx, worker/src/main.ts); all are SIGKILLed after the file. */
export function workerProcesses() {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  });
  return {
    start(env: WorkerProcessEnv): ChildProcess {
      const child = spawn(process.execPath, ["--import", "tsx", "worker/src/main.ts"], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          NODE_ENV: "test",
          TOKEN_ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
          WORKER_CONCURRENCY: "10",
          // These tests run many runs of one user at once; the per-user cap is tested on its own.
          MAX_ACTIVE_RUNS_PER_USER: "64",
          LOG_LEVEL: "warn",
          ...env,
        },
        stdio: ["ignore", "inherit", "inherit"],
      });
      children.push(child);
      return child;
    },
    async kill(child: ChildProcess): Promise<void> {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await exited;
    },
    async stop(child: ChildProcess): Promise<void> {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Waits until `ok` answers true (a throw counts as not yet): eventually() with the fault files' words. */
export async function until(what: string, ok: () => Promise<boolean>, ms: number, every = 200): Promise<void> {
  await eventually(ok, { what, timeout: ms, interval: every });
}

/** Lets a user solve without a monthly limit, so a fault suite can run many solves. */
export async function makeEnterprise(db: Db, userId: string): Promise<void> {
  await withPlan(db, userId, "ENTERPRISE");
}

export async function usedQuota(db: Db, userId: string): Promise<number> {
  const rows = await db.selectFrom("usage_counters").select("used").where("user_id", "=", userId).execute();
  return rows.reduce((n, r) => n + r.used, 0);
}

/** Runs `fn` over `items`, at most `size` at a time, keeping order. */
export async function inPool<T, R>(items: T[], size: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: size }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i] as T, i);
      }
    }),
  );
  return out;
}
