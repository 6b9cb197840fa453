import { Gauge } from "prom-client";
import { sql } from "kysely";
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
    const rows = await s.db
      .selectFrom("solve_runs")
      .select(["status", (eb) => eb.fn.countAll<string>().as("n")])
      .groupBy("status")
      .execute();
    for (const r of rows) set({ status: r.status }, Number(r.n));
  },
);

scrapeGauge(
  { name: "fixloop_run_failures", help: "Failed runs by error code (all time)", labelNames: ["code"] },
  async (s, set) => {
    const rows = await s.db
      .selectFrom("solve_runs")
      .select(["error_code", (eb) => eb.fn.countAll<string>().as("n")])
      .where("status", "=", "failed")
      .groupBy("error_code")
      .execute();
    for (const r of rows) set({ code: r.error_code ?? "unknown" }, Number(r.n));
  },
);

scrapeGauge(
  {
    name: "fixloop_run_duration_seconds",
    help: "Duration of runs finished in the last 24 hours, by quantile",
    labelNames: ["quantile"],
  },
  async (s, set) => {
    const r = await sql<{ p50: number | null; p95: number | null }>`
    select percentile_cont(0.5) within group (order by extract(epoch from finished_at - started_at)) as p50,
           percentile_cont(0.95) within group (order by extract(epoch from finished_at - started_at)) as p95
    from solve_runs where finished_at > now() - interval '24 hours' and started_at is not null`.execute(s.db);
    const row = r.rows[0];
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
    const r = await sql<{ step: string; p50: number; p95: number }>`
    select step, percentile_cont(0.5) within group (order by duration_ms) / 1000.0 as p50,
           percentile_cont(0.95) within group (order by duration_ms) / 1000.0 as p95
    from run_steps where finished_at > now() - interval '24 hours' and duration_ms is not null group by step`.execute(
      s.db,
    );
    for (const row of r.rows) {
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
    const rows = await s.db
      .selectFrom("solve_runs")
      .select([
        "model_id",
        (eb) => eb.fn.sum<string>("tokens_in").as("tin"),
        (eb) => eb.fn.sum<string>("tokens_out").as("tout"),
      ])
      .groupBy("model_id")
      .execute();
    for (const r of rows) {
      set({ direction: "in", model: r.model_id }, Number(r.tin ?? 0));
      set({ direction: "out", model: r.model_id }, Number(r.tout ?? 0));
    }
  },
);
