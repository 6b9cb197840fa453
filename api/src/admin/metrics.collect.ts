import { Gauge } from "prom-client";
import { metrics } from "@fixloop/db";
import type { AppDeps } from "../deps";
import { metricsRegistry } from "./metrics.registry";

type Source = Pick<AppDeps, "db" | "queues">;
let source: Source | undefined;

/** Points the scrape-time gauges at this process's database and queues (the last app created wins). */
export function bindMetricsSource(s: Source): void {
  source = s;
}

type Labels<L extends string> = Partial<Record<L, string | number>>;

/** A gauge computed at scrape time from the database and queues, reset before each read. */
function scrapeGauge<L extends string>(
  opts: { name: string; help: string; labelNames: readonly L[] },
  read: (s: Source, set: (labels: Labels<L>, value: number) => void) => Promise<void>,
): void {
  new Gauge({
    ...opts,
    labelNames: [...opts.labelNames],
    registers: [metricsRegistry],
    async collect() {
      if (!source) return;
      this.reset();
      await read(source, (labels, value) => this.set(labels, value));
    },
  });
}

const STATES = ["waiting", "active", "delayed", "prioritized", "failed", "completed"] as const;

scrapeGauge(
  { name: "fixloop_queue_jobs", help: "Jobs per queue and state", labelNames: ["queue", "state"] },
  async (s, set) => {
    for (const q of s.queues.all()) {
      const counts = await q.getJobCounts(...STATES);
      for (const state of STATES) set({ queue: q.name, state }, counts[state] ?? 0);
    }
  },
);

scrapeGauge(
  { name: "fixloop_runs", help: "Solve/refine runs by status (all time)", labelNames: ["status"] },
  async (s, set) => {
    for (const r of await metrics.runsByStatus(s.db)) set({ status: r.status }, r.n);
  },
);

scrapeGauge(
  { name: "fixloop_run_failures", help: "Failed runs by error code (all time)", labelNames: ["code"] },
  async (s, set) => {
    for (const r of await metrics.failuresByCode(s.db)) set({ code: r.code ?? "unknown" }, r.n);
  },
);

scrapeGauge(
  {
    name: "fixloop_run_duration_seconds",
    help: "Duration of runs finished in the last 24 hours, by quantile",
    labelNames: ["quantile"],
  },
  async (s, set) => {
    const row = await metrics.runDurations(s.db);
    if (row?.p50 != null) set({ quantile: "0.5" }, Number(row.p50));
    if (row?.p95 != null) set({ quantile: "0.95" }, Number(row.p95));
  },
);

scrapeGauge(
  {
    name: "fixloop_step_duration_seconds",
    help: "Duration of pipeline steps finished in the last 24 hours, by step and quantile",
    labelNames: ["step", "quantile"],
  },
  async (s, set) => {
    for (const row of await metrics.stepDurations(s.db)) {
      set({ step: row.step, quantile: "0.5" }, Number(row.p50));
      set({ step: row.step, quantile: "0.95" }, Number(row.p95));
    }
  },
);

scrapeGauge(
  {
    name: "fixloop_model_tokens",
    help: "Model tokens used by all runs, by direction and model",
    labelNames: ["direction", "model"],
  },
  async (s, set) => {
    for (const r of await metrics.tokensByModel(s.db)) {
      set({ direction: "in", model: r.model }, r.tokensIn);
      set({ direction: "out", model: r.model }, r.tokensOut);
    }
  },
);
