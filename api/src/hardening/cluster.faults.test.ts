import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { createTestStack, type SignedIn, type TestStack } from "../../test/stack";
import { insertIssue, insertRun } from "@fixloop/testkit";
import { jobIds, runEventsKey } from "@fixloop/contract";
import { makeEnterprise, until } from "../../test/faults.testkit";
import { clusterProcesses, failoverProxy, type ClusterApi, type ClusterProcess } from "../../test/cluster.testkit";
import { expectEachCompletedOnce } from "../../test/cluster.checks";
import { browserEventStream, sharedBrowser } from "../../test/browser-sse.testkit";
import { streamSlotsKey } from "../solve/sse.limit";

/**
 * Two API processes and three worker processes, each with its own data and workspace directory
 * as on separate hosts, on one Postgres and one Redis. Runs use the model stand-in with tests
 * off, so a run takes a fraction of a second unless a test slows the model down.
 */
const STREAM_CAP = 3;
/** worker-1's grace period on SIGTERM. */
const DRAIN_SECONDS = 6;
let models: ModelSandbox;
let stack: TestStack;
let cluster: ReturnType<typeof clusterProcesses>;
let api1: ClusterApi;
let api2: ClusterApi;
let me: SignedIn;
const workers: ClusterProcess[] = [];
let issueNumber = 1000;
const t0 = performance.now();

beforeAll(async () => {
  models = await startModelSandbox();
  stack = await createTestStack({ env: models.env, workers: false, logLevel: "warn" });
  cluster = clusterProcesses({
    DATABASE_URL: stack.deps.env.DATABASE_URL,
    REDIS_URL: stack.deps.env.REDIS_URL,
    QUEUE_PREFIX: stack.prefix,
    GITHUB_API_URL: stack.github.url,
    PUBLIC_URL: stack.publicUrl,
    RATE_LIMITS_ENABLED: "false",
    SSE_MAX_STREAMS_PER_USER: String(STREAM_CAP),
    WORKER_QUEUES: "solve",
    WORKER_CONCURRENCY: "2",
    SANDBOX_BACKEND: "off",
    LOCALIZE_THREADS: "0",
    ...models.env,
  });
  workers.push(cluster.startWorker("worker-1", { WORKER_DRAIN_SECONDS: String(DRAIN_SECONDS) }));
  [api1, api2] = await Promise.all([cluster.startApi("api-1"), cluster.startApi("api-2")]);
  me = await stack.signIn("octocat");
  await makeEnterprise(stack.db, me.user._id);
  await solveWorkers(1);
  console.log(`cluster started in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}, 120_000);
afterAll(async () => {
  console.log(`cluster test wall time: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  await cluster?.stopAll();
  await models?.stop();
});

async function solveWorkers(n: number) {
  await until(
    `${n} solve workers connected`,
    async () => (await stack.deps.queues.solve.getWorkers()).length === n,
    60_000,
    100,
  );
}

async function startRun(api: ClusterApi): Promise<string> {
  const issue = await insertIssue(stack.db, me.user._id, { number: issueNumber++ });
  const res = await fetch(`${api.url}/api/ai/generate-solution`, {
    method: "POST",
    headers: { ...me.headers, "content-type": "application/json" },
    body: JSON.stringify({ issueId: issue.id }),
  });
  expect(res.status, await res.clone().text()).toBe(202);
  return ((await res.json()) as { runId: string }).runId;
}

const runsOf = (ids: string[]) => stack.db.selectFrom("solve_runs").selectAll().where("id", "in", ids).execute();

async function allEnded(ids: string[], ms: number) {
  await until(`${ids.length} runs ended`, async () => (await runsOf(ids)).every((r) => r.finished_at), ms, 100);
}

describe("the per-user live-stream cap", () => {
  it("holds across both API processes and frees a slot for either when a stream closes", async () => {
    const issue = await insertIssue(stack.db, me.user._id, { number: issueNumber++ });
    // A run no worker will take (no job): its streams stay open.
    const run = await insertRun(stack.db, { user_id: me.user._id, issue_id: issue.id });
    const open = async (api: ClusterApi) => {
      const ctl = new AbortController();
      const res = await fetch(`${api.url}/api/runs/${run.id}/events`, { headers: me.headers, signal: ctl.signal });
      return {
        status: res.status,
        ctl,
        code: res.status === 429 ? ((await res.json()) as { error: { code: string } }).error.code : "",
      };
    };
    const held = [await open(api1), await open(api1), await open(api2)];
    expect(held.map((s) => s.status)).toEqual([200, 200, 200]);
    const over = [await open(api2), await open(api1)];
    expect(over.map((s) => [s.status, s.code])).toEqual([
      [429, "sse.too_many_streams"],
      [429, "sse.too_many_streams"],
    ]);
    held[0]?.ctl.abort();
    await until(
      "the closed stream's slot freed",
      async () => (await stack.redis.zcard(streamSlotsKey(stack.prefix, me.user._id))) === 2,
      5_000,
      50,
    );
    const again = await open(api2);
    expect(again.status).toBe(200);
    console.log(
      `stream cap ${STREAM_CAP} across 2 API processes: ${held.length} held, ${over.length} refused, 1 admitted after a close`,
    );
    for (const s of [...held, again]) s.ctl.abort();
    await stack.db
      .updateTable("solve_runs")
      .set({ status: "cancelled", finished_at: new Date() })
      .where("id", "=", run.id)
      .execute();
  });
});

describe("a browser following a run when its API process is SIGKILLed", () => {
  it("resumes on the other API process with Last-Event-ID: every stored event once, in order", async () => {
    const proxy = await failoverProxy([api1.url, api2.url]);
    models.control.latency(2_000);
    // Chromium first: launched after the run started, it could come up after the run had ended.
    await sharedBrowser();
    try {
      const runId = await startRun(api2);
      const page = await browserEventStream(proxy.url, `/api/runs/${runId}/events`, me.headers.cookie);
      await until(
        "the model call under way",
        async () => (await page.seen()).events.some((e) => e.type === "step" && e.id),
        30_000,
        50,
      );
      const before = (await page.seen()).events.filter((e) => e.type !== "snapshot").length;
      const killed = await cluster.signal(api1, "SIGKILL");
      expect(killed.signal).toBe("SIGKILL");
      await until("the terminal event", async () => (await page.seen()).done, 60_000, 100);
      const { events, opens } = await page.seen();
      const got = events.filter((e) => e.type !== "snapshot");
      const stored = (await stack.redis.xrange(runEventsKey(stack.prefix, runId), "-", "+")).map(([id]) => id);
      const ids = got.map((e) => e.id);
      const figures = {
        stored: stored.length,
        seen: got.length,
        beforeKill: before,
        afterResume: got.filter((e) => e.connection > 1).length,
        duplicates: ids.length - new Set(ids).size,
        lost: stored.filter((id) => !ids.includes(id)).length,
        connections: opens,
      };
      console.log(`browser failover (Chromium EventSource): ${JSON.stringify(figures)}`);
      expect(ids).toEqual(stored);
      expect(opens).toBe(2);
      expect(figures.beforeKill).toBeGreaterThan(0);
      expect(figures.afterResume).toBeGreaterThan(0);
      expect(got.at(-1)?.type).toBe("completed");
    } finally {
      models.control.latency(0);
      await proxy.close();
    }
  });
});

describe("SIGTERM to a worker", () => {
  it("drains it: a job that fits the grace period finishes there, one that does not goes back to the queue at once and completes elsewhere", async () => {
    models.control.reset();
    models.control.latency(300);
    // The first model request of the batch never answers: its job cannot finish within the grace period.
    models.control.hangNext(1);
    try {
      const ids = [await startRun(api2), await startRun(api2), await startRun(api2), await startRun(api2)];
      await until(
        "worker-1 holds two jobs, one waiting on the model",
        async () => {
          const active = await stack.deps.queues.solve.getActiveCount();
          return active === 2 && models.control.requests.length > 0;
        },
        30_000,
        50,
      );
      const drained = workers[0];
      if (!drained) throw new Error("no worker-1");
      const active = (await stack.deps.queues.solve.getActive()).map((j) => (j.data as { runId: string }).runId);
      const stop = cluster.signal(drained, "SIGTERM");
      // Three more workers boot meanwhile: the other hosts, and the replacement for the drained one.
      workers.push(cluster.startWorker("worker-2"), cluster.startWorker("worker-3"), cluster.startWorker("worker-4"));
      const exit = await stop;
      const exitAt = Date.now();
      const atExit = await runsOf(active);
      const handedBack = atExit.filter((r) => r.status !== "completed").map((r) => r.id);
      const states = await Promise.all(
        handedBack.map(async (id) => (await stack.deps.queues.solve.getJob(jobIds.solve(id)))?.getState()),
      );
      await allEnded(ids, 60_000);
      const completedAfterExitMs = Math.max(
        ...(await runsOf(handedBack)).map((r) => (r.finished_at?.getTime() ?? 0) - exitAt),
      );
      const figures = await expectEachCompletedOnce(stack, ids, handedBack);
      console.log(
        `worker drain (grace ${DRAIN_SECONDS} s): ${JSON.stringify({ ...exit, activeAtSigterm: active.length, finishedInDrain: active.length - handedBack.length, handedBack: handedBack.length, handedBackStateAtExit: states, completedAfterExitMs, ...figures })}`,
      );
      // Out of time, it exits 1 right after the grace period; the unfinished job is already back in the queue, not locked until it stalls.
      expect(exit.code).toBe(1);
      expect(exit.ms).toBeGreaterThanOrEqual(DRAIN_SECONDS * 1000 - 200);
      expect(exit.ms).toBeLessThan(DRAIN_SECONDS * 1000 + 5_000);
      // The hung one at least (on a very slow host the other may not fit the grace period either).
      expect(handedBack.length).toBeGreaterThanOrEqual(1);
      // Solve jobs carry a priority (their place among their user's runs), so a handed-back one waits as "prioritized".
      for (const state of states) expect(["waiting", "prioritized", "active"]).toContain(state);
    } finally {
      models.control.latency(0);
    }
    workers.shift();
    await solveWorkers(3);
  });
});

describe("a rolling restart of every worker while 50 runs are queued", () => {
  it("loses none, duplicates none and stalls none", async () => {
    models.control.latency(250);
    try {
      // API 1 was killed above: API 2 takes every request, as behind a load balancer.
      const ids = await Promise.all(Array.from({ length: 50 }, () => startRun(api2)));
      const r0 = performance.now();
      const waitingAtSigterm: number[] = [];
      // One at a time: the replacement starts as the old process is told to drain.
      for (let i = 0; i < 3; i++) {
        const old = workers[i];
        if (!old) throw new Error(`no worker ${i}`);
        waitingAtSigterm.push(await stack.deps.queues.solve.getJobCountByTypes("waiting", "prioritized"));
        workers[i] = cluster.startWorker(`${old.name}r`);
        const exit = await cluster.signal(old, "SIGTERM");
        expect(exit.code).toBe(0);
        await solveWorkers(3);
      }
      const rollMs = performance.now() - r0;
      const waiting = await stack.deps.queues.solve.getJobCountByTypes("waiting", "prioritized");
      await allEnded(ids, 60_000);
      // No job stalled (BullMQ counts every job its stall check found unlocked) and each run was claimed once.
      const figures = await expectEachCompletedOnce(stack, ids);
      const ends = (await runsOf(ids)).map((r) => r.finished_at?.getTime() ?? 0).sort((a, b) => a - b);
      const longestWithoutACompletionMs = Math.max(...ends.slice(1).map((e, i) => e - (ends[i] ?? e)));
      console.log(
        `rolling restart: ${JSON.stringify({ ...figures, rollMs: Math.round(rollMs), waitingAtSigterm, waitingAfterRoll: waiting, longestWithoutACompletionMs, totalMs: Math.round(performance.now() - r0) })}`,
      );
      expect(waitingAtSigterm[0]).toBeGreaterThan(0);
    } finally {
      models.control.latency(0);
    }
  });
});
