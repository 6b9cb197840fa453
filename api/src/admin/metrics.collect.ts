import { Counter, Gauge } from "prom-client";
import { MODEL_CATALOG } from "@fixloop/contract";
import { metrics } from "@fixloop/db";
import { oldestWaitingMs } from "@fixloop/runtime";
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
  {
    name: "fixloop_queue_oldest_waiting_seconds",
    help: "Age of the job first in line per queue (0 when none waits): since it was added (after its delay), or since its last attempt began (after its backoff) for a job back after a retry or a stall",
    labelNames: ["queue"],
  },
  async (s, set) => {
    const now = Date.now();
    for (const q of s.queues.all()) set({ queue: q.name }, ((await oldestWaitingMs(q, now)) ?? 0) / 1000);
  },
);

scrapeGauge(
  { name: "fixloop_queue_workers", help: "Worker connections BullMQ sees per queue", labelNames: ["queue"] },
  async (s, set) => {
    for (const q of s.queues.all()) set({ queue: q.name }, (await q.getWorkers()).length);
  },
);

scrapeGauge(
  { name: "fixloop_runs", help: "Solve/refine runs by status (all time)", labelNames: ["status"] },
  async (s, set) => {
    for (const r of await metrics.runsByStatus(s.db)) set({ status: r.status }, r.n);
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

const providerOf = (model: string) => MODEL_CATALOG.find((m) => m.id === model)?.provider ?? "openai-compatible";

// Counter-typed: the ledger's sum only grows (a late answer settling an unconfirmed worst case lower is the one exception).
new Counter({
  name: "fixloop_model_spend_usd_total",
  help: "Model spend in USD by provider and model (all time; settled and unconfirmed requests)",
  labelNames: ["provider", "model"],
  registers: [metricsRegistry],
  async collect() {
    if (!source) return;
    const rows = await metrics.spendByModel(source.db);
    this.reset();
    for (const r of rows) this.inc({ provider: providerOf(r.model), model: r.model }, r.usd);
  },
});
