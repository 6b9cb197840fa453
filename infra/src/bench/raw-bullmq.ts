import { Queue, Worker } from "bullmq";
import { redisConnection } from "@fixloop/runtime";
import { percentile } from "./report";

const now = () => performance.timeOrigin + performance.now();

/** Baseline: enqueue-to-start latency and throughput of no-op BullMQ jobs on the same Redis. */
export async function rawBullmq(
  redisUrl: string,
  jobs = 300,
): Promise<{ p50: number; p99: number; perSecond: number; jobP50: number; jobP99: number }> {
  const connection = redisConnection(redisUrl);
  const prefix = `bench-raw-${process.pid}`;
  const queue = new Queue("noop", { connection, prefix });
  const latencies: number[] = [];
  // The same measure as for product jobs: BullMQ's own add timestamp to processedOn (whole ms).
  const stamped: number[] = [];
  let bursting = false;
  let done = 0;
  let resolveAll: () => void = () => {};
  const all = new Promise<void>((r) => (resolveAll = r));
  const worker = new Worker(
    "noop",
    async (job) => {
      latencies.push(now() - (job.data as { t: number }).t);
      if (!bursting) stamped.push((job.processedOn ?? 0) - job.timestamp);
      if (++done === jobs) resolveAll();
    },
    { connection, prefix, concurrency: 1 },
  );
  await worker.waitUntilReady();
  // Latency: one job at a time, so each measures an idle queue.
  for (let i = 0; i < jobs; i++) {
    await queue.add("noop", { t: now() }, { removeOnComplete: true });
    await new Promise((r) => setTimeout(r, 2));
  }
  await all;
  // Throughput: a burst.
  done = 0;
  bursting = true;
  const burst = new Promise<void>((r) => (resolveAll = r));
  const t0 = now();
  await queue.addBulk(
    Array.from({ length: jobs }, () => ({ name: "noop", data: { t: now() }, opts: { removeOnComplete: true } })),
  );
  await burst;
  const perSecond = jobs / ((now() - t0) / 1000);
  await worker.close();
  await queue.obliterate({ force: true });
  await queue.close();
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    perSecond,
    jobP50: percentile(stamped, 50),
    jobP99: percentile(stamped, 99),
  };
}
