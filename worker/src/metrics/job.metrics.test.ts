import { afterAll, describe, expect, it } from "vitest";
import { Queue, QueueEvents, UnrecoverableError, Worker } from "bullmq";
import pino from "pino";
import { createTestRedis, eventually, testPrefix, testRedisUrl } from "@fixloop/testkit";
import { CLUSTER_METRICS, jobFailed, readCounter, readHistogram, redisConnection } from "@fixloop/runtime";
import { failureCode, recordJobMetrics } from "./job.metrics";

describe("the error code a failed job is counted under", () => {
  it("reads coded job errors, a run's `code: message`, BullMQ's stall limit, and nothing from free text", () => {
    expect(failureCode(jobFailed({ code: "job.invalid_payload", message: "x", retryable: false }))).toBe(
      "job.invalid_payload",
    );
    expect(failureCode(jobFailed({ code: "github.unavailable", message: "x", retryable: true }))).toBe(
      "github.unavailable",
    );
    expect(failureCode(new UnrecoverableError("model.timeout: Generating: no answer"))).toBe("model.timeout");
    expect(failureCode(new Error("job stalled more than allowable limit"))).toBe("job.stalled_limit");
    expect(failureCode(new Error("ECONNRESET: socket hang up"))).toBe("unknown");
    expect(failureCode(new Error('{"code":"<script>","message":"x"}'))).toBe("unknown");
  });
});

describe("a worker's job metrics", () => {
  it("counts a retried attempt as a retry and the last failed attempt as a failure, with their durations", async () => {
    const redis = createTestRedis();
    const prefix = testPrefix();
    const connection = redisConnection(testRedisUrl());
    const queue = new Queue("flaky", { connection, prefix });
    const events = new QueueEvents("flaky", { connection, prefix });
    const worker = new Worker(
      "flaky",
      async (job) => {
        if (job.data.ok) return "done";
        throw jobFailed({ code: "github.unavailable", message: "GitHub answered 502", retryable: true });
      },
      { connection, prefix },
    );
    recordJobMetrics(worker, "flaky", { redis, queues: { prefix }, logger: pino({ level: "silent" }) });
    afterAll(async () => {
      await worker.close();
      await events.close();
      await queue.close();
    });
    await events.waitUntilReady();
    const failing = await queue.add("x", { ok: false }, { attempts: 2 });
    const passing = await queue.add("x", { ok: true });
    await expect(failing.waitUntilFinished(events)).rejects.toThrow();
    await passing.waitUntilFinished(events);

    const series = async () => ({
      failures: await readCounter(redis, prefix, CLUSTER_METRICS.jobFailures),
      retries: await readCounter(redis, prefix, CLUSTER_METRICS.jobRetries),
      durations: await readHistogram(redis, prefix, CLUSTER_METRICS.jobDuration),
    });
    // The durations are recorded a moment after each job ends.
    const got = await eventually(
      async () => {
        const s = await series();
        return s.durations.reduce((n, d) => n + d.count, 0) >= 3 ? s : false;
      },
      { timeout: 2_500, interval: 50 },
    );
    const code = "github.unavailable";
    expect(got.retries).toEqual([{ labels: { queue: "flaky", code }, value: 1 }]);
    expect(got.failures).toEqual([{ labels: { queue: "flaky", code }, value: 1 }]);
    const byResult = Object.fromEntries(got.durations.map((s) => [s.labels.result, s]));
    for (const result of ["completed", "failed", "retried"]) {
      expect(byResult[result]?.count, result).toBe(1);
      // Cumulative: the +Inf bucket holds every observation, and no bucket holds fewer than the one before.
      const b: number[] = byResult[result]?.buckets ?? [];
      expect(b.at(-1)).toBe(1);
      expect(b.every((n, i) => i === 0 || n >= (b[i - 1] ?? 0))).toBe(true);
    }
  });
});
