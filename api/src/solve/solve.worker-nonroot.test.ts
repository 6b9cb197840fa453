import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import url from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { eventually, insertIssue } from "@fixloop/testkit";
import { jobIds, SolutionTests, type SandboxCheck } from "@fixloop/contract";
import { createTestStack, type TestStack } from "../../test/stack";
import { TEST_ENCRYPTION_KEYS } from "../../test/testing";
import { pushFiles, TAB_TEST } from "../../test/tests-run.testkit";

/**
 * The worker as the production image runs it, without a container engine: a separate process as
 * nobody, no capabilities, NODE_ENV=production, SANDBOX_BACKEND=bwrap, its data and workspaces in
 * folders nobody owns, Debian's bwrap. And the two ways the same process must refuse solves: no
 * bwrap on PATH, and no user namespaces for it (it runs inside a bwrap that denies them).
 */
const ROOT = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "../../..");
const NOBODY = 65534;
let models: ModelSandbox;
let stack: TestStack;
let home: string;
const children: ChildProcess[] = [];
/** Each started worker's log lines (pino JSON on stdout), as they arrive. */
const logs = new Map<ChildProcess, string[]>();

beforeAll(async () => {
  models = await startModelSandbox();
  stack = await createTestStack({ env: models.env, workers: false, logLevel: "warn" });
  home = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-nobody-"));
  fs.chmodSync(home, 0o755);
  fs.chownSync(home, NOBODY, NOBODY);
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  await models?.stop();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

/** `setpriv` to nobody with every capability gone (inheritable, bounding, ambient by default) and no new privileges. */
const AS_NOBODY = [
  "/usr/bin/setpriv",
  `--reuid=${NOBODY}`,
  `--regid=${NOBODY}`,
  "--clear-groups",
  "--inh-caps=-all",
  "--bounding-set=-all",
  "--no-new-privs",
  "--",
];

function startWorker(o: { prefix: string[]; env: Record<string, string> }): ChildProcess {
  const [cmd = "", ...args] = [...o.prefix, process.execPath, "--import", "tsx", "worker/src/main.ts"];
  const child = spawn(cmd, args, {
    cwd: ROOT,
    env: {
      HOME: home,
      DATABASE_URL: stack.deps.env.DATABASE_URL,
      REDIS_URL: stack.deps.env.REDIS_URL,
      QUEUE_PREFIX: stack.prefix,
      TOKEN_ENCRYPTION_KEYS: TEST_ENCRYPTION_KEYS,
      GITHUB_API_URL: stack.github.url,
      WORKER_QUEUES: "solve",
      WORKER_CONCURRENCY: "1",
      LOG_LEVEL: "warn",
      FIXLOOP_DATA_DIR: path.join(home, "data"),
      WORKSPACE_DIR: path.join(home, "workspaces"),
      ...models.env,
      ...o.env,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  const lines: string[] = [];
  logs.set(child, lines);
  let rest = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    const parts = (rest + chunk).split("\n");
    rest = parts.pop() ?? "";
    lines.push(...parts);
    process.stdout.write(chunk);
  });
  return child;
}

/** The worker's log line saying its failed self-check keeps it from taking solve jobs. */
const refusal = (child: ChildProcess) =>
  eventually(
    () =>
      logs.get(child)?.find((l) => l.includes("sandbox self-check failed: this worker takes no solve job")) ?? false,
    { timeout: 60_000, interval: 100, what: "the worker's refusal in its log" },
  );

/**
 * After the worker has exited: the run is still queued and its job was never taken (no worker
 * ever moved it to active), so nothing this worker did in its whole life touched it.
 */
async function untouched(runId: string) {
  expect(await runStatus(runId)).toBe("queued");
  const job = await stack.deps.queues.solve.getJob(jobIds.solve(runId));
  expect(job?.processedOn).toBeUndefined();
  expect(job?.attemptsMade).toBe(0);
}

async function stop(child: ChildProcess) {
  child.kill("SIGTERM");
  if (child.exitCode === null) await new Promise((r) => child.once("exit", r));
}

/** Workers whose check an earlier case read (a stopped one stays listed until its heartbeat expires). */
const seen = new Set<string>();
/** A new worker's self-check as /api/health lists it, once there. */
const healthCheck = async (): Promise<{ status: string; check: SandboxCheck }> => {
  const [status, check] = await eventually(
    async () => {
      const b = await (await stack.client().health.$get()).json();
      const c = b.sandbox.find((x) => !seen.has(x.worker));
      return c ? ([b.status, c] as const) : false;
    },
    { timeout: 60_000, interval: 200, what: "the worker's sandbox self-check in /api/health" },
  );
  seen.add(check.worker);
  return { status, check };
};
const runStatus = async (runId: string) =>
  (await stack.db.selectFrom("solve_runs").select("status").where("id", "=", runId).executeTakeFirstOrThrow()).status;

describe("a solve worker run the production image's way", () => {
  let runId = "";

  it("without bwrap on PATH (no SANDBOX_BACKEND), knows its sandbox is missing and leaves solves in the queue", async () => {
    const me = await stack.signIn("octocat");
    pushFiles(stack, "hubot", "markdown-lint", { "test/trailing-tabs.test.js": TAB_TEST }, "Add a failing test");
    const issue = await insertIssue(stack.db, me.user._id, {});
    const res = await stack
      .client(me.headers)
      .ai["generate-solution"].$post({ query: {}, json: { issueId: issue.id } });
    expect(res.status).toBe(202);
    runId = (await res.json()).runId;

    const child = startWorker({ prefix: AS_NOBODY, env: { NODE_ENV: "production", PATH: "/nonexistent" } });
    const health = await healthCheck();
    expect(health.status).toBe("degraded");
    expect(health.check).toMatchObject({ backend: "off", mode: "off-missing", ok: false });
    await refusal(child);
    await stop(child);
    await untouched(runId);
  }, 90_000);

  it("as nobody without user namespaces, finds its walls missing and leaves solves in the queue", async () => {
    const denyUserns = [
      ...AS_NOBODY,
      "/usr/bin/bwrap",
      "--die-with-parent",
      "--unshare-user",
      "--disable-userns",
      "--dev-bind",
      "/",
      "/",
      "--",
    ];
    const child = startWorker({
      prefix: denyUserns,
      env: { NODE_ENV: "production", SANDBOX_BACKEND: "bwrap", PATH: "/usr/bin:/bin" },
    });
    const { check } = await healthCheck();
    expect(check).toMatchObject({ backend: "bwrap", mode: "on", ok: false, walls: { network: "missing" } });
    expect(check.detail.network).toMatch(/namespace/);
    await refusal(child);
    await stop(child);
    await untouched(runId);
  }, 90_000);

  it("as nobody with no capabilities, passes its self-check and proves a fix with the repository's tests", async () => {
    models.control.respondWith((p) => p.includes("trailing-spaces"), {
      analysis: "TRAILING only matches spaces.",
      proposedSolution: "Match tabs too.",
      confidence: 80,
      files: [
        {
          filename: "src/rules/trailing-spaces.js",
          action: "modify" as const,
          edits: [{ search: "const TRAILING = / +$/;\n", replace: "const TRAILING = /[ \\t]+$/;\n" }],
        },
      ],
    });
    const child = startWorker({
      prefix: AS_NOBODY,
      env: { NODE_ENV: "production", SANDBOX_BACKEND: "bwrap", PATH: "/usr/bin:/bin" },
    });
    const { check } = await healthCheck();
    expect(check).toMatchObject({ backend: "bwrap", mode: "on", ok: true, totals: "per process" });
    expect(Object.values(check.walls)).toEqual(Array(7).fill("held"));
    await eventually(async () => ["completed", "failed"].includes(await runStatus(runId)), {
      timeout: 120_000,
      interval: 200,
      what: "the run to end",
    });
    expect(await runStatus(runId)).toBe("completed");
    const run = await stack.db
      .selectFrom("solve_runs")
      .select("solution_id")
      .where("id", "=", runId)
      .executeTakeFirstOrThrow();
    const solution = await stack.db
      .selectFrom("solutions")
      .select("metadata")
      .where("id", "=", run.solution_id ?? "")
      .executeTakeFirstOrThrow();
    const tests = SolutionTests.parse((solution.metadata as { tests: unknown }).tests);
    expect(tests).toMatchObject({ backend: "bwrap", status: "passed", fixed: ["reports trailing tabs"] });
    // The repository's copies were made and run as nobody, in the folder nobody owns.
    expect(fs.statSync(path.join(home, "workspaces")).uid).toBe(NOBODY);
    await stop(child);
  }, 180_000);
});
