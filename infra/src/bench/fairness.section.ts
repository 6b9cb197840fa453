import type { ModelSandboxControl } from "@fixloop/testkit/sandbox";
import { sleep, startRun } from "./bench-runs";
import { startBenchStack, type BenchStack } from "./bench-stack";
import { seedIssues } from "./bench-seed";
import { percentile, type Figure } from "./report";
import type { BenchContext, Section } from "./section.types";

/** Each model request waits this long at the stand-in; with the repository's tests a run takes a few seconds. */
const MODEL_LATENCY_MS = 300;
const A_RUNS = 40;
const B_SAMPLES = 8;
const WORKER_CONCURRENCY = 4;
const RUN_TIMEOUT_MS = 150_000;
const TERMINAL = ["completed", "failed", "cancelled"];

interface Person {
  headers: Record<string, string>;
  issues: string[];
}
interface RunRow {
  id: string;
  status: string;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const rowsOf = (bs: BenchStack, ids: string[]): Promise<RunRow[]> =>
  bs.db
    .selectFrom("solve_runs")
    .select(["id", "status", "created_at", "started_at", "finished_at"])
    .where("id", "in", ids)
    .execute();

async function waitUntil(bs: BenchStack, ids: string[], done: (r: RunRow) => boolean): Promise<RunRow[]> {
  const end = Date.now() + RUN_TIMEOUT_MS;
  for (;;) {
    const rows = await rowsOf(bs, ids);
    if (rows.length === ids.length && rows.every(done)) return rows;
    if (Date.now() > end) throw new Error(`runs did not get there within ${RUN_TIMEOUT_MS / 1000} s`);
    await sleep(20);
  }
}
const ended = (r: RunRow) => TERMINAL.includes(r.status);
const startToEnd = (r: RunRow) => (r.finished_at?.getTime() ?? 0) - (r.started_at?.getTime() ?? 0);
/** Run creation (the API queues its job right after) to a worker claiming it. */
const enqueueToStart = (r: RunRow) => (r.started_at?.getTime() ?? 0) - r.created_at.getTime();

/** B starts one run at a time (each after the last ended) while `more` holds; returns their rows. */
async function sampleB(bs: BenchStack, b: Person, more: (taken: number) => Promise<boolean>): Promise<RunRow[]> {
  const out: RunRow[] = [];
  while (out.length < B_SAMPLES && (await more(out.length))) {
    const [row] = await waitUntil(bs, [await startRun(bs.api, b.headers, b.issues)], ended);
    if (row) out.push(row);
  }
  return out;
}

/** A's burst of runs started together: runs per second from the first request to the last finish. */
async function burstA(bs: BenchStack, a: Person, during?: (ids: string[]) => Promise<void>) {
  const t0 = Date.now();
  const ids = await Promise.all(Array.from({ length: A_RUNS }, () => startRun(bs.api, a.headers, a.issues)));
  await during?.(ids);
  const rows = await waitUntil(bs, ids, ended);
  const last = Math.max(...rows.map((r) => r.finished_at?.getTime() ?? 0));
  const failed = rows.filter((r) => r.status !== "completed").length;
  if (failed) process.stderr.write(`  fairness: ${failed} of A's runs did not complete\n`);
  return { rows, seconds: (last - t0) / 1000 };
}

export const fairnessSection: Section = {
  name: "fairness",
  async run(ctx: BenchContext): Promise<Figure[]> {
    const bs = await startBenchStack(ctx, "fairness");
    try {
      const models = bs.stack.sandboxes.models?.control as ModelSandboxControl | undefined;
      if (!models) throw new Error("the fairness section needs the model stand-in");
      // Both users are ENTERPRISE (cap 4): A alone can fill every slot of the one worker process.
      const people: Person[] = [];
      for (const [login, n] of [
        ["octocat", 2 * A_RUNS + 2 * WORKER_CONCURRENCY + 4],
        ["hubot", 3 * B_SAMPLES],
      ] as const) {
        const me = await bs.signIn(login);
        const issues = await seedIssues(
          bs.db,
          me.userId,
          Array.from({ length: n }, (_, i) => 6000 + i),
        );
        people.push({ headers: { ...me.headers, "content-type": "application/json" }, issues });
      }
      const [a, b] = people as [Person, Person];
      bs.startWorker({ WORKER_QUEUES: "solve", WORKER_CONCURRENCY: String(WORKER_CONCURRENCY) });
      await waitUntil(
        bs,
        [await startRun(bs.api, a.headers, a.issues), await startRun(bs.api, b.headers, b.issues)],
        ended,
      );
      models.latency(MODEL_LATENCY_MS);
      // Fill every slot once so the measured bursts start warm (loaded modules, cached base trees).
      await waitUntil(
        bs,
        await Promise.all(Array.from({ length: 2 * WORKER_CONCURRENCY }, () => startRun(bs.api, a.headers, a.issues))),
        ended,
      );

      const idle = await sampleB(bs, b, async () => true);
      const alone = await burstA(bs, a);
      let contended: RunRow[] = [];
      const withB = await burstA(bs, a, async (ids) => {
        // B's runs start while A still has a backlog behind every busy slot.
        contended = await sampleB(bs, b, async () => {
          const rows = await rowsOf(bs, ids);
          return rows.filter((r) => r.status === "queued").length >= 2 * WORKER_CONCURRENCY;
        });
      });

      const durations = alone.rows.map(startToEnd);
      const jobMs = percentile(durations, 50);
      // B may arrive just after A's runs took every slot: it then waits for the first of them to end.
      const longJobMs = percentile(durations, 95);
      const idleMs = idle.map(enqueueToStart);
      const busyMs = contended.map(enqueueToStart);
      const goal = 2 * percentile(idleMs, 95) + longJobMs;
      const aAlone = A_RUNS / alone.seconds;
      const aWithB = A_RUNS / withB.seconds;
      const allWithB = (A_RUNS + contended.length) / withB.seconds;
      const sec = "fairness";
      process.stderr.write(
        `  fairness: one job ${jobMs} ms; B samples idle ${idleMs.join(", ")} ms; behind A's ${A_RUNS} ${busyMs.join(", ")} ms\n`,
      );
      return [
        { section: sec, name: "one run's duration p50 (start to end)", value: jobMs, unit: "ms" },
        { section: sec, name: "one run's duration p95", value: longJobMs, unit: "ms" },
        {
          section: sec,
          name: `B enqueue-to-start p50, A idle (${idleMs.length} runs)`,
          value: percentile(idleMs, 50),
          unit: "ms",
        },
        { section: sec, name: `B enqueue-to-start p95, A idle`, value: percentile(idleMs, 95), unit: "ms" },
        {
          section: sec,
          name: `B enqueue-to-start p50, behind A's ${A_RUNS} (${busyMs.length} runs)`,
          value: percentile(busyMs, 50),
          unit: "ms",
          baseline: percentile(idleMs, 50),
          baselineName: "A idle",
        },
        {
          section: sec,
          name: `B enqueue-to-start p95, behind A's ${A_RUNS}`,
          value: percentile(busyMs, 95),
          unit: "ms",
          baseline: percentile(idleMs, 95),
          baselineName: "A idle",
          target: `<= 2x idle p95 + one run's p95 (${Math.round(goal)} ms)`,
          holds: busyMs.length > 0 && percentile(busyMs, 95) <= goal,
        },
        { section: sec, name: `A runs/s, A alone (${WORKER_CONCURRENCY} slots)`, value: aAlone, unit: "runs/s" },
        {
          section: sec,
          name: `A runs/s while B runs ${contended.length}`,
          value: aWithB,
          unit: "runs/s",
          baseline: aAlone,
          baselineName: "A alone",
        },
        {
          section: sec,
          name: "A+B runs/s while B runs",
          value: allWithB,
          unit: "runs/s",
          baseline: aAlone,
          baselineName: "A alone",
          target: ">= 0.9x (no slot lost to fairness)",
          holds: allWithB >= 0.9 * aAlone,
        },
      ];
    } finally {
      await bs.stop();
    }
  },
};
