import fs from "node:fs";
import path from "node:path";
import { createQueues, redisConnection, type Queues } from "@fixloop/runtime";
import { jobIds } from "@fixloop/contract";
import { seedIssues } from "./bench-seed";
import { sleep, startRun, waitWorkers } from "./bench-runs";
import { startBenchStack, type BenchStack } from "./bench-stack";
import { machineCpuTicks, treeCpuSeconds } from "./child";
import { rawBullmq } from "./raw-bullmq";
import { percentile, type Figure } from "./report";
import type { BenchContext, Section } from "./section.types";

const LATENCY_RUNS = 30;
const BURST_RUNS = 80;
const RUN_TIMEOUT_MS = 120_000;
const TERMINAL = ["completed", "failed", "cancelled"] as const;

interface Session {
  bs: BenchStack;
  /** Processes whose CPU use is reported per burst (the bench process hosts the stand-ins). */
  pids: Record<string, number>;
  queues: Queues;
  headers: Record<string, string>;
  issues: string[];
}

/** Waits until every run has ended; returns the last finish time (ms since epoch) and the failures. */
async function waitRuns(s: Session, ids: string[]): Promise<{ lastFinish: number; failed: string[] }> {
  const end = Date.now() + RUN_TIMEOUT_MS;
  for (;;) {
    const rows = await s.bs.db
      .selectFrom("solve_runs")
      .select(["id", "status", "finished_at", "error_code"])
      .where("id", "in", ids)
      .execute();
    const done = rows.filter((r) => (TERMINAL as readonly string[]).includes(r.status));
    if (done.length === ids.length) {
      const failed = done.filter((r) => r.status !== "completed").map((r) => r.error_code ?? r.status);
      return { lastFinish: Math.max(...done.map((r) => r.finished_at?.getTime() ?? 0)), failed };
    }
    if (Date.now() > end)
      throw new Error(`runs did not end within ${RUN_TIMEOUT_MS / 1000} s (${done.length}/${ids.length})`);
    await sleep(done.length === ids.length - 1 ? 5 : 25);
  }
}

/** Enqueue-to-start of the product's solve job: `queues.solve.add` (job timestamp, API process) to the worker taking it (processedOn). */
async function latencies(s: Session, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const runId = await startRun(s.bs.api, s.headers, s.issues);
    await waitRuns(s, [runId]);
    const job = await s.queues.solve.getJob(jobIds.solve(runId));
    if (job?.processedOn && job.timestamp) out.push(job.processedOn - job.timestamp);
  }
  return out;
}

/**
 * Runs per second for a burst of `n` runs started together (first request to last finish), and
 * the share of the machine's CPU that was busy meanwhile: two workers can only beat one when
 * one leaves cores idle.
 */
async function throughput(s: Session, n: number, label: string): Promise<{ perSecond: number; busy: number }> {
  const machine0 = machineCpuTicks();
  const cpu0 = cpuOf(s.pids);
  const t0 = Date.now();
  const ids = await Promise.all(Array.from({ length: n }, () => startRun(s.bs.api, s.headers, s.issues)));
  const { lastFinish, failed } = await waitRuns(s, ids);
  const cpu1 = cpuOf(s.pids);
  const machine1 = machineCpuTicks();
  const busy = (machine1.busy - machine0.busy) / Math.max(1, machine1.total - machine0.total);
  const used = Object.keys(cpu1).map((k) => `${k} ${((cpu1[k] ?? 0) - (cpu0[k] ?? 0)).toFixed(1)}`);
  process.stderr.write(
    `  queue ${label}: CPU seconds during the burst: ${used.join(", ")} (over ${((lastFinish - t0) / 1000).toFixed(1)} s; machine CPU ${(busy * 100).toFixed(0)}% busy)\n`,
  );
  if (failed.length)
    process.stderr.write(
      `  queue ${label}: ${failed.length} runs did not complete (${[...new Set(failed)].join(", ")})\n`,
    );
  return { perSecond: n / ((lastFinish - t0) / 1000), busy };
}

function cpuOf(pids: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {
    "bench+stand-ins": (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
  };
  for (const [name, pid] of Object.entries(pids)) out[name] = treeCpuSeconds(pid);
  return out;
}

function servicePids(ctx: BenchContext): Record<string, number> {
  const out: Record<string, number> = {};
  const pgPid = path.join(ctx.dir, "postgres", "postmaster.pid");
  if (fs.existsSync(pgPid)) out.postgres = Number(fs.readFileSync(pgPid, "utf8").split("\n")[0]);
  if (ctx.services.redis) out.redis = ctx.services.redis.pid;
  return out;
}

export const queueSection: Section = {
  name: "queue",
  async run(ctx: BenchContext): Promise<Figure[]> {
    const bs = await startBenchStack(ctx, "queue");
    const queues = createQueues(redisConnection(ctx.services.redisUrl), bs.prefix);
    try {
      const me = await bs.signIn("octocat");
      const total = 10 + LATENCY_RUNS + 2 * BURST_RUNS;
      const issues = await seedIssues(
        bs.db,
        me.userId,
        Array.from({ length: total }, (_, i) => 5000 + i),
      );
      const pids: Record<string, number> = { api: bs.stack.api.proc.pid ?? 0, ...servicePids(ctx) };
      const s: Session = { bs, pids, queues, headers: { ...me.headers, "content-type": "application/json" }, issues };
      // One user fills both processes here: the per-user cap (see the fairness section) must not bind.
      const workerEnv = { WORKER_QUEUES: "solve", WORKER_CONCURRENCY: "4", MAX_ACTIVE_RUNS_PER_USER: "64" };
      pids["worker-1"] = bs.startWorker(workerEnv).proc.pid ?? 0;
      await waitWorkers(queues, 1);
      const warm = await waitRuns(s, [
        await startRun(s.bs.api, s.headers, s.issues),
        await startRun(s.bs.api, s.headers, s.issues),
      ]);
      if (warm.failed.length) throw new Error(`warm-up runs failed: ${warm.failed.join(", ")}`);
      const lat = await latencies(s, LATENCY_RUNS);
      const one = await throughput(s, BURST_RUNS, "1 worker");
      pids["worker-2"] = bs.startWorker(workerEnv).proc.pid ?? 0;
      await waitWorkers(queues, 2);
      // Let the new process load and warm its caches, as the first one did.
      await waitRuns(s, await Promise.all(Array.from({ length: 8 }, () => startRun(s.bs.api, s.headers, s.issues))));
      const two = await throughput(s, BURST_RUNS, "2 workers");
      const raw = await rawBullmq(ctx.services.redisUrl);
      const sec = "queue";
      const p50 = percentile(lat, 50);
      return [
        {
          section: sec,
          name: "enqueue-to-start p50 (whole ms)",
          value: p50,
          unit: "ms",
          baseline: raw.jobP50,
          baselineName: "raw BullMQ no-op",
          target: "< 5 ms",
          holds: p50 < 5,
        },
        {
          section: sec,
          name: "enqueue-to-start p99 (whole ms)",
          value: percentile(lat, 99),
          unit: "ms",
          baseline: raw.jobP99,
          baselineName: "raw BullMQ no-op",
        },
        {
          section: sec,
          name: "machine CPU busy, 1-worker burst",
          value: Math.round(one.busy * 100),
          unit: "%",
        },
        {
          section: sec,
          name: "pipeline runs/s, 1 worker process",
          value: one.perSecond,
          unit: "runs/s",
          baseline: raw.perSecond,
          baselineName: "raw BullMQ no-op jobs/s",
        },
        {
          section: sec,
          name: "pipeline runs/s, 2 worker processes",
          value: two.perSecond,
          unit: "runs/s",
          baseline: one.perSecond,
          baselineName: "1 worker process",
          target: ">= 1.6x",
          holds: two.perSecond >= 1.6 * one.perSecond,
        },
      ];
    } finally {
      await queues.close();
      await bs.stop();
    }
  },
};
