import os from "node:os";
import { createQueues, redisConnection, type Queues } from "@fixloop/runtime";
import { sleep, startRun, waitWorkers } from "./bench-runs";
import { startBenchStack, type BenchStack } from "./bench-stack";
import { seedIssues } from "./bench-seed";
import type { ModelSandboxControl } from "@fixloop/testkit/sandbox";
import type { Figure } from "./report";
import type { BenchContext, Section } from "./section.types";

/** Runs waiting when the workers are let loose, per measurement. */
const WAITING_RUNS = 30;
const RUN_TIMEOUT_MS = 180_000;
const LATENCIES_MS = [0, 1_000];
/** Each worker process as deployed in the many-process test: solve only, two jobs at once, tests off (the queue, not the sandbox, is measured). */
const WORKER_ENV = { WORKER_QUEUES: "solve", WORKER_CONCURRENCY: "2", SANDBOX_BACKEND: "off" };

interface Session {
  bs: BenchStack;
  queues: Queues;
  headers: Record<string, string>;
  issues: string[];
}

/** Waits until every run completed; returns the last finish time (ms since epoch). */
async function waitCompleted(s: Session, ids: string[]): Promise<number> {
  const end = Date.now() + RUN_TIMEOUT_MS;
  for (;;) {
    const rows = await s.bs.db
      .selectFrom("solve_runs")
      .select(["status", "finished_at"])
      .where("id", "in", ids)
      .execute();
    const ended = rows.filter((r) => r.finished_at);
    if (ended.length === ids.length) {
      const failed = ended.filter((r) => r.status !== "completed").length;
      if (failed) throw new Error(`${failed} of ${ids.length} runs did not complete`);
      return Math.max(...ended.map((r) => r.finished_at?.getTime() ?? 0));
    }
    if (Date.now() > end) throw new Error(`runs did not end within ${RUN_TIMEOUT_MS / 1000} s`);
    await sleep(25);
  }
}

/** Enqueues `n` runs on a paused queue, then resumes it: runs per second from the resume to the last finish. */
async function backlogThroughput(s: Session, n: number): Promise<number> {
  await s.queues.solve.pause();
  const ids = await Promise.all(Array.from({ length: n }, () => startRun(s.bs.api, s.headers, s.issues)));
  const t0 = Date.now();
  await s.queues.solve.resume();
  const last = await waitCompleted(s, ids);
  return n / ((last - t0) / 1000);
}

/**
 * Scaling workers out while runs wait: 30 runs queued behind a paused queue drained by one worker
 * process, then 30 more by three; once with the model stand-in answering at once and once in 1 s.
 * On a machine with few cores the processes share the same CPUs: with an instant model a run is
 * all CPU and more processes cannot help there, while with a model that takes its time (as real
 * providers do, for seconds) more processes wait in parallel.
 */
export const scaleOutSection: Section = {
  name: "scale-out",
  async run(ctx: BenchContext): Promise<Figure[]> {
    const bs = await startBenchStack(ctx, "scale-out");
    const queues = createQueues(redisConnection(ctx.services.redisUrl), bs.prefix);
    try {
      const me = await bs.signIn("octocat");
      const issues = await seedIssues(
        bs.db,
        me.userId,
        Array.from({ length: 2 * LATENCIES_MS.length * WAITING_RUNS + 12 }, (_, i) => 7000 + i),
      );
      const s: Session = { bs, queues, headers: { ...me.headers, "content-type": "application/json" }, issues };
      const model = bs.stack.sandboxes.models?.control as ModelSandboxControl | undefined;
      if (!model) throw new Error("the scale-out section needs the model stand-in");
      /** Runs per second at each model latency, answering at once (CPU-bound) and in 1 s (as a real provider, waiting). */
      const measure = async () => {
        const out: number[] = [];
        for (const ms of LATENCIES_MS) {
          model.latency(ms);
          out.push(await backlogThroughput(s, WAITING_RUNS));
        }
        model.latency(0);
        return out;
      };
      bs.startWorker(WORKER_ENV);
      await waitWorkers(queues, 1);
      await waitCompleted(
        s,
        await Promise.all(Array.from({ length: 4 }, () => startRun(s.bs.api, s.headers, s.issues))),
      );
      const one = await measure();
      bs.startWorker(WORKER_ENV);
      bs.startWorker(WORKER_ENV);
      await waitWorkers(queues, 3);
      // The new processes load their code and warm their caches on a few runs first, as the first one did.
      await waitCompleted(
        s,
        await Promise.all(Array.from({ length: 8 }, () => startRun(s.bs.api, s.headers, s.issues))),
      );
      const three = await measure();
      const cores = os.cpus().length;
      return LATENCIES_MS.flatMap((ms, i) => {
        const a = one[i] ?? 0;
        const b = three[i] ?? 0;
        const how = ms ? `model answers in ${ms / 1000} s` : "model answers at once";
        process.stderr.write(
          `  scale-out (${how}): ${a.toFixed(2)} runs/s with 1 worker, ${b.toFixed(2)} with 3 (${(b / a).toFixed(2)}x on ${cores} cores)\n`,
        );
        return [
          { section: "scale-out", name: `runs/s, 30 waiting, 1 worker, ${how}`, value: a, unit: "runs/s" },
          {
            section: "scale-out",
            name: `runs/s, 30 waiting, 3 workers, ${how} (${cores} cores)`,
            value: b,
            unit: "runs/s",
            baseline: a,
            baselineName: "1 worker process",
            target: "> 1.0x",
            holds: b > a,
          },
        ];
      });
    } finally {
      await queues.close();
      await bs.stop();
    }
  },
};
