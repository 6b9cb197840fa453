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

const STATES = ["waiting", "active", "delayed", "prioritized", "failed", "completed"] as const;

new Gauge({
  name: "fixloop_queue_jobs",
  help: "Jobs per queue and state",
  labelNames: ["queue", "state"],
  registers: [metricsRegistry],
  async collect() {
    if (!source) return;
    this.reset();
    for (const q of source.queues.all()) {
      const counts = await q.getJobCounts(...STATES);
      for (const s of STATES) this.set({ queue: q.name, state: s }, counts[s] ?? 0);
    }
  },
});

new Gauge({
  name: "fixloop_runs",
  help: "Solve/refine runs by status (all time)",
  labelNames: ["status"],
  registers: [metricsRegistry],
  async collect() {
    if (!source) return;
    this.reset();
    const rows = await source.db.selectFrom("solve_runs").select(["status", (eb) => eb.fn.countAll<string>().as("n")]).groupBy("status").execute();
    for (const r of rows) this.set({ status: r.status }, Number(r.n));
  },
});

new Gauge({
  name: "fixloop_run_failures",
  help: "Failed runs by error code (all time)",
  labelNames: ["code"],
  registers: [metricsRegistry],
  async collect() {
    if (!source) return;
    this.reset();
    const rows = await source.db
      .selectFrom("solve_runs")
      .select(["error_code", (eb) => eb.fn.countAll<string>().as("n")])
      .where("status", "=", "failed")
      .groupBy("error_code")
      .execute();
    for (const r of rows) this.set({ code: r.error_code ?? "unknown" }, Number(r.n));
  },
});

new Gauge({
  name: "fixloop_run_duration_seconds",
  help: "Duration of runs finished in the last 24 hours, by quantile",
  labelNames: ["quantile"],
  registers: [metricsRegistry],
  async collect() {
    if (!source) return;
    this.reset();
    const r = await sql<{ p50: number | null; p95: number | null }>`
      select percentile_cont(0.5) within group (order by extract(epoch from finished_at - started_at)) as p50,
             percentile_cont(0.95) within group (order by extract(epoch from finished_at - started_at)) as p95
      from solve_runs where finished_at > now() - interval '24 hours' and started_at is not null`.execute(source.db);
    const row = r.rows[0];
    if (row?.p50 != null) this.set({ quantile: "0.5" }, Number(row.p50));
    if (row?.p95 != null) this.set({ quantile: "0.95" }, Number(row.p95));
  },
});

new Gauge({
  name: "fixloop_step_duration_seconds",
  help: "Duration of pipeline steps finished in the last 24 hours, by step and quantile",
  labelNames: ["step", "quantile"],
  registers: [metricsRegistry],
  async collect() {
    if (!source) return;
    this.reset();
    const r = await sql<{ step: string; p50: number; p95: number }>`
      select step, percentile_cont(0.5) within group (order by duration_ms) / 1000.0 as p50,
             percentile_cont(0.95) within group (order by duration_ms) / 1000.0 as p95
      from run_steps where finished_at > now() - interval '24 hours' and duration_ms is not null group by step`.execute(source.db);
    for (const row of r.rows) {
      this.set({ step: row.step, quantile: "0.5" }, Number(row.p50));
      this.set({ step: row.step, quantile: "0.95" }, Number(row.p95));
    }
  },
});

new Gauge({
  name: "fixloop_model_tokens",
  help: "Model tokens used by all runs, by direction and model",
  labelNames: ["direction", "model"],
  registers: [metricsRegistry],
  async collect() {
    if (!source) return;
    this.reset();
    const rows = await source.db
      .selectFrom("solve_runs")
      .select(["model_id", (eb) => eb.fn.sum<string>("tokens_in").as("tin"), (eb) => eb.fn.sum<string>("tokens_out").as("tout")])
      .groupBy("model_id")
      .execute();
    for (const r of rows) {
      this.set({ direction: "in", model: r.model_id }, Number(r.tin ?? 0));
      this.set({ direction: "out", model: r.model_id }, Number(r.tout ?? 0));
    }
  },
});
