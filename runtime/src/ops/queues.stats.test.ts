import { describe, expect, it } from "vitest";
import { percentiles, perMinute } from "./queues.stats";

const MIN = 60_000;
const now = 1_000 * MIN + 30_000;

describe("jobs finished per minute from BullMQ's metrics", () => {
  it("puts the pending count in prevTS's minute and the list's entries in the minutes before it", () => {
    const m = { meta: { count: 10, prevTS: now - 2 * MIN, prevCount: 7 }, data: [2, 0, 5] };
    // prevTS two minutes ago: pending 3 there, then 2, 0, 5 in the three minutes before.
    expect(perMinute(m, 6, now)).toEqual([5, 0, 2, 3, 0, 0]);
  });

  it("drops minutes older than the window and answers zeros before any job finished", () => {
    const m = { meta: { count: 4, prevTS: now - 70 * MIN, prevCount: 0 }, data: [1] };
    expect(perMinute(m, 60, now)).toEqual(new Array(60).fill(0));
    expect(perMinute({ meta: { count: 0, prevTS: 0, prevCount: 0 }, data: [] }, 3, now)).toEqual([0, 0, 0]);
  });
});

describe("nearest-rank percentiles", () => {
  it("answers p50, p95 and p99 of the values, and null for none", () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentiles(values)).toEqual({ p50: 50, p95: 95, p99: 99, count: 100 });
    expect(percentiles([7])).toEqual({ p50: 7, p95: 7, p99: 7, count: 1 });
    expect(percentiles([])).toBeNull();
  });
});
