import type { Redis } from "ioredis";
import { DURATION_BUCKETS, type ClusterFamily, type CounterFamily, type HistogramFamily } from "./metrics.families";

/*
 * Why Redis: jobs finish in worker processes, but /metrics is served by the API processes, and
 * Prometheus needs true cumulative series (counters, histogram buckets) that never go backwards
 * when one process restarts and that add up over every worker. Each worker adds to one Redis
 * hash per family (HINCRBY, in one MULTI per observation); any API process reads the hash
 * (HGETALL, atomic) at scrape time and serves the same cluster-wide figures. A histogram is kept
 * as per-bucket counts and made cumulative on read. Computing buckets from Postgres timings over
 * a window would not be a counter: it would drop old runs and go down, and rate() would lie.
 * The keys sit under the queue prefix, a handful per family (labels are bounded: queues, steps,
 * error codes, sandbox results); Redis runs with AOF and noeviction, so they persist.
 */

type LabelValues<L extends string> = Record<L, string>;

const key = (prefix: string, f: ClusterFamily) => `${prefix}:metrics:${f.name}`;

/** Label values are bounded, printable tokens (error codes, queue and step ids); anything else is cut down. */
const clean = (v: string): string => v.replace(/[^A-Za-z0-9_.:-]/g, "_").slice(0, 64) || "unknown";

const encode = <L extends string>(f: { labelNames: readonly L[] }, labels: LabelValues<L>): string =>
  JSON.stringify(f.labelNames.map((n) => clean(labels[n])));

/** Adds `by` to one series of a counter. */
export async function incrementCounter<L extends string>(
  redis: Redis,
  prefix: string,
  f: CounterFamily<L>,
  labels: LabelValues<L>,
  by = 1,
): Promise<void> {
  await redis.hincrbyfloat(key(prefix, f), encode(f, labels), by);
}

/** Records one duration (seconds) in a histogram: its bucket, the sum and the count, atomically. */
export async function observeDuration<L extends string>(
  redis: Redis,
  prefix: string,
  f: HistogramFamily<L>,
  labels: LabelValues<L>,
  seconds: number,
): Promise<void> {
  const v = Math.max(0, seconds);
  const series = encode(f, labels);
  const le = DURATION_BUCKETS.find((b) => v <= b) ?? "+Inf";
  await redis
    .multi()
    .hincrby(key(prefix, f), `bucket ${le} ${series}`, 1)
    .hincrbyfloat(key(prefix, f), `sum ${series}`, v)
    .hincrby(key(prefix, f), `count ${series}`, 1)
    .exec();
}

export interface CounterSeries {
  labels: Record<string, string>;
  value: number;
}
export interface HistogramSeries {
  labels: Record<string, string>;
  /** Cumulative counts for each of DURATION_BUCKETS, then +Inf (= count). */
  buckets: number[];
  sum: number;
  count: number;
}

const decode = (f: ClusterFamily, json: string): Record<string, string> => {
  const values = JSON.parse(json) as string[];
  return Object.fromEntries(f.labelNames.map((n, i) => [n, values[i] ?? ""]));
};

/** A counter family's series as stored. */
export async function readCounter(redis: Redis, prefix: string, f: CounterFamily): Promise<CounterSeries[]> {
  const hash = await redis.hgetall(key(prefix, f));
  return Object.entries(hash).map(([field, v]) => ({ labels: decode(f, field), value: Number(v) }));
}

/** A histogram family's series with cumulative buckets. */
export async function readHistogram(redis: Redis, prefix: string, f: HistogramFamily): Promise<HistogramSeries[]> {
  const hash = await redis.hgetall(key(prefix, f));
  const bounds: string[] = [...DURATION_BUCKETS.map(String), "+Inf"];
  const series = new Map<string, { perBucket: number[]; sum: number; count: number }>();
  const of = (json: string) => {
    let s = series.get(json);
    if (!s) series.set(json, (s = { perBucket: bounds.map(() => 0), sum: 0, count: 0 }));
    return s;
  };
  for (const [field, raw] of Object.entries(hash)) {
    const [kind, a, b] = field.split(" ");
    const n = Number(raw);
    if (kind === "bucket" && a !== undefined && b !== undefined) {
      const i = bounds.indexOf(a);
      if (i >= 0) of(b).perBucket[i] = n;
    } else if (kind === "sum" && a !== undefined) of(a).sum = n;
    else if (kind === "count" && a !== undefined) of(a).count = n;
  }
  return [...series].map(([json, s]) => {
    let running = 0;
    return { labels: decode(f, json), buckets: s.perBucket.map((n) => (running += n)), sum: s.sum, count: s.count };
  });
}
