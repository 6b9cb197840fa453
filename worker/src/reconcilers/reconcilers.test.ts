import pino from "pino";
import { describe, expect, it } from "vitest";
import { QUEUES } from "@fixloop/contract";
import { createTestRedis, testPrefix } from "@fixloop/testkit";
import type { WorkerContext } from "../context";
import { defineReconciler, reconcileOnce, startReconcilers } from "./reconciler.define";
import { RECONCILERS } from "./reconcilers";

const redis = createTestRedis();
const ctx = {
  redis,
  queues: { prefix: testPrefix() },
  logger: pino({ level: "silent" }),
  env: { SWEEP_INTERVAL_SECONDS: 30 },
} as unknown as WorkerContext;

/** A reconciler that counts its passes. */
function counting(name: string, queues: Array<(typeof QUEUES)[keyof typeof QUEUES]>, seconds = 30) {
  const passes: number[] = [];
  const r = defineReconciler({
    name,
    queues,
    intervalSeconds: () => seconds,
    run: async () => passes.push(Date.now()),
    count: () => 0,
  });
  return { r, passes };
}

describe("reconcilers", () => {
  it("are a registered list, each with a name of its own and an interval", () => {
    const names = RECONCILERS.map((r) => r.name);
    expect(names).toEqual(["left-repositories", "crashed-reservations", "unheld-runs", "stale-backtests"]);
    for (const r of RECONCILERS) expect(r.intervalSeconds(ctx)).toBe(30);
  });

  it("each takes its own turn: a second worker is refused that reconciler's pass this interval, not another's", async () => {
    const a = counting("a", [QUEUES.solve]);
    const b = counting("b", [QUEUES.solve]);
    expect(await reconcileOnce(ctx, a.r, 30)).not.toBeNull();
    expect(await reconcileOnce(ctx, a.r, 30)).toBeNull();
    expect(await reconcileOnce(ctx, b.r, 30)).not.toBeNull();
    expect([a.passes.length, b.passes.length]).toEqual([1, 1]);
  });

  it("start only in a process serving one of their queues, each on its own interval", async () => {
    const fast = counting("fast", [QUEUES.backtest], 1);
    const other = counting("other-queue", [QUEUES.pullRequest], 1);
    const started = startReconcilers(ctx, [fast.r, other.r], [QUEUES.solve, QUEUES.backtest]);
    try {
      await expect.poll(() => fast.passes.length, { timeout: 5_000, interval: 100 }).toBeGreaterThanOrEqual(1);
    } finally {
      started.stop();
    }
    expect(other.passes).toEqual([]);
  });
});
