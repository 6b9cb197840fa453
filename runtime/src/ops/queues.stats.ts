import type { Queue } from "bullmq";
import type { Redis } from "ioredis";

/** Job counts of one queue by state, whether it is paused, and how long its oldest waiting job has waited. */
export interface QueueDepth {
  name: string;
  paused: boolean;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
  /** Milliseconds the job first in line has waited (see oldestWaitingMs); null when none waits. */
  oldestWaitingMs: number | null;
}

/**
 * Milliseconds the job first in line has waited, or null when none waits: since it was added
 * (after its delay), or since its last attempt began (after its backoff) for a job back after a
 * retry or a stall. Prioritized jobs wait too (solve jobs carry their place among their user's
 * runs as a priority); for them the first in line is the one BullMQ takes next.
 */
export async function oldestWaitingMs(queue: Queue, now = Date.now()): Promise<number | null> {
  const [waiting, prioritized] = await Promise.all([
    queue.getJobs(["waiting"], 0, 0, true),
    queue.getJobs(["prioritized"], 0, 0, true),
  ]);
  const since = [...waiting, ...prioritized]
    .filter((j) => j !== undefined)
    .map((j) => Math.max(j.timestamp, j.processedOn ?? 0) + (j.delay ?? 0));
  return since.length ? Math.max(0, now - Math.min(...since)) : null;
}

/** Depth of a queue: counts by state (prioritized jobs count as waiting) and the age of its oldest waiting job. */
export async function queueDepth(queue: Queue, now = Date.now()): Promise<QueueDepth> {
  const [counts, paused, oldest] = await Promise.all([
    queue.getJobCounts("waiting", "prioritized", "active", "delayed", "failed", "completed"),
    queue.isPaused(),
    oldestWaitingMs(queue, now),
  ]);
  return {
    name: queue.name,
    paused,
    waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
    active: counts.active ?? 0,
    delayed: counts.delayed ?? 0,
    failed: counts.failed ?? 0,
    completed: counts.completed ?? 0,
    oldestWaitingMs: oldest,
  };
}

/** What BullMQ's getMetrics answers: per-minute counts (newest first) and its running totals. */
export interface BullMetrics {
  meta: { count: number; prevTS: number; prevCount: number };
  data: number[];
}

/**
 * Per-minute counts for the `minutes` up to `now`, oldest first, from BullMQ's metrics. BullMQ
 * pushes a minute's count onto its list only when a later job finishes; the count since `prevTS`
 * is still pending, so the list's head is the minute before `prevTS`'s and the pending count
 * belongs to `prevTS`'s own minute.
 */
export function perMinute(m: BullMetrics, minutes: number, now: number): number[] {
  const out = new Array<number>(minutes).fill(0);
  if (!m.meta.prevTS) return out;
  const nowMinute = Math.floor(now / 60_000);
  const put = (minute: number, n: number) => {
    const i = minutes - 1 - (nowMinute - minute);
    if (i >= 0 && i < minutes) out[i] = (out[i] ?? 0) + n;
  };
  const pendingMinute = Math.floor(m.meta.prevTS / 60_000);
  put(pendingMinute, Math.max(0, m.meta.count - m.meta.prevCount));
  m.data.forEach((n, i) => put(pendingMinute - 1 - i, n));
  return out;
}

/** Jobs finished per minute over the last `minutes`, oldest first (workers must run with `metrics` on). */
export async function finishedPerMinute(
  queue: Queue,
  type: "completed" | "failed",
  minutes = 60,
  now = Date.now(),
): Promise<number[]> {
  return perMinute(await queue.getMetrics(type, 0, minutes - 1), minutes, now);
}

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
  count: number;
}

/** Nearest-rank percentiles of `values` (any unit); null when there are none. */
export function percentiles(values: number[]): Percentiles | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99), count: sorted.length };
}

/** Processing time (ms, finishedOn − processedOn) of the last `limit` completed jobs of a queue. */
export async function recentJobDurations(queue: Queue, client: Redis, limit = 200): Promise<number[]> {
  const ids = await client.zrevrange(queue.toKey("completed"), 0, limit - 1);
  if (!ids.length) return [];
  const pipe = client.pipeline();
  for (const id of ids) pipe.hmget(queue.toKey(id), "processedOn", "finishedOn");
  const rows = (await pipe.exec()) ?? [];
  return rows.flatMap((r: [Error | null, unknown]) => {
    const [started, finished] = ((r?.[1] as (string | null)[] | undefined) ?? []).map(Number);
    return started && finished && finished >= started ? [finished - started] : [];
  });
}
