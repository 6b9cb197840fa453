import { Counter, Gauge, type Metric } from "prom-client";
import type { Redis } from "ioredis";
import {
  CLUSTER_METRICS,
  DURATION_BUCKETS,
  readCounter,
  listWorkers,
  readHistogram,
  type ClusterFamily,
  type CounterFamily,
  type HistogramFamily,
} from "@fixloop/runtime";
import { metricsRegistry } from "./metrics.registry";

/** Where the cluster-wide figures are read (the last app created wins, as for the scrape-time gauges). */
let store: { redis: Redis; prefix: string } | undefined;
export function bindClusterMetrics(s: { redis: Redis; prefix: string }): void {
  store = s;
}

/** A counter the workers add to in Redis, served as is (every API process serves the same value). */
function mirrorCounter(f: CounterFamily): void {
  new Counter({
    name: f.name,
    help: f.help,
    labelNames: [...f.labelNames],
    registers: [metricsRegistry],
    async collect() {
      if (!store) return;
      const series = await readCounter(store.redis, store.prefix, f);
      this.reset();
      for (const s of series) this.inc(s.labels, s.value);
    },
  });
}

/**
 * A histogram the workers fill in Redis: prom-client's Histogram can only observe values in this
 * process, so this metric hands the registry the stored cumulative buckets, sum and count itself
 * (the registry reads `get()` of anything it holds; the shape is prom-client's own histogram output).
 */
function mirrorHistogram(f: HistogramFamily): void {
  const metric = {
    name: f.name,
    help: f.help,
    type: "histogram",
    aggregator: "sum",
    reset() {},
    async get() {
      const series = store ? await readHistogram(store.redis, store.prefix, f) : [];
      const values = series.flatMap((s) => [
        ...s.buckets.map((value, i) => ({
          metricName: `${f.name}_bucket`,
          labels: { ...s.labels, le: i < DURATION_BUCKETS.length ? DURATION_BUCKETS[i] : "+Inf" },
          value,
        })),
        { metricName: `${f.name}_sum`, labels: s.labels, value: s.sum },
        { metricName: `${f.name}_count`, labels: s.labels, value: s.count },
      ]);
      return { name: f.name, help: f.help, type: "histogram", values, aggregator: "sum" };
    },
  };
  metricsRegistry.registerMetric(metric as unknown as Metric);
}

for (const f of Object.values(CLUSTER_METRICS) as ClusterFamily[]) {
  if (f.type === "counter") mirrorCounter(f);
  else mirrorHistogram(f);
}

/** Each worker's last sandbox self-check: 1 a wall held, 0 it is missing; and whether the worker takes solve jobs. */
new Gauge({
  name: "fixloop_sandbox_wall",
  help: "Sandbox self-check per worker and wall: 1 held, 0 missing",
  labelNames: ["worker", "wall"],
  registers: [metricsRegistry],
  async collect() {
    if (!store) return;
    this.reset();
    for (const w of await listWorkers(store.redis, store.prefix))
      for (const [wall, state] of Object.entries(w.sandbox?.walls ?? {}))
        this.set({ worker: w.id, wall }, state === "held" ? 1 : 0);
  },
});
new Gauge({
  name: "fixloop_sandbox_ok",
  help: "1 when the worker's sandbox self-check lets it take solve jobs (walls held, or SANDBOX_BACKEND=off on purpose)",
  labelNames: ["worker", "backend", "mode"],
  registers: [metricsRegistry],
  async collect() {
    if (!store) return;
    this.reset();
    for (const w of await listWorkers(store.redis, store.prefix))
      if (w.sandbox) this.set({ worker: w.id, backend: w.sandbox.backend, mode: w.sandbox.mode }, w.sandbox.ok ? 1 : 0);
  },
});
