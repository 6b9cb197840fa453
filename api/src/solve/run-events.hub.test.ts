import { describe, expect, it } from "vitest";
import { createTestRedis, eventually, testPrefix } from "@fixloop/testkit";
import type { RunEvent } from "@fixloop/contract";
import { compareIds, RunEventHub, type HubEntry } from "./run-events.hub";

const step = (i: number): RunEvent => ({
  type: "step",
  step: "analyzing",
  status: "running",
  detail: { files: [], info: [`n${i}`], warnings: [] },
  at: new Date().toISOString(),
});

describe("run event hub", () => {
  it("orders stream ids numerically", () => {
    expect(compareIds("10-0", "9-5")).toBeGreaterThan(0);
    expect(compareIds("5-2", "5-10")).toBeLessThan(0);
    expect(compareIds("5-2", "5-2")).toBe(0);
  });

  it("delivers each entry once to every subscriber of a run over one reader, and joins new runs at once", async () => {
    const redis = createTestRedis();
    const hub = new RunEventHub(redis, 5_000);
    const prefix = testPrefix();
    const keyA = `${prefix}:a`;
    const keyB = `${prefix}:b`;
    const got: Record<string, HubEntry[]> = { a1: [], a2: [], b: [] };
    const offA1 = hub.subscribe(keyA, (e) => got.a1?.push(...e));
    const offA2 = hub.subscribe(keyA, (e) => got.a2?.push(...e));
    for (let i = 0; i < 5; i++) await redis.xadd(keyA, "*", "data", JSON.stringify(step(i)));
    // Delivered: the reader is blocked again, waiting for more.
    await eventually(() => got.a1?.length === 5 && got.a2?.length === 5, { interval: 5 });
    // Joining while the reader is blocked must not wait for the block to time out.
    const t0 = performance.now();
    const offB = hub.subscribe(keyB, (e) => got.b?.push(...e));
    await redis.xadd(keyB, "*", "data", JSON.stringify(step(99)));
    await eventually(() => got.b?.length === 1, { what: "the new run's entry", timeout: 3_000, interval: 5 });
    expect(performance.now() - t0).toBeLessThan(1_000);
    expect(got.a1?.map((e) => e.event.type === "step" && e.event.detail.info[0])).toEqual([
      "n0",
      "n1",
      "n2",
      "n3",
      "n4",
    ]);
    expect(got.a2?.map((e) => e.id)).toEqual(got.a1?.map((e) => e.id));
    expect(got.b).toHaveLength(1);
    offA1();
    offA2();
    offB();
  });
});
