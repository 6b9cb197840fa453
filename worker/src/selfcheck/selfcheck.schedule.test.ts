import { describe, expect, it } from "vitest";
import { CHECK_RETRY_MS, nextCheckDelayMs } from "./selfcheck.gate";

const INTERVAL = 900_000;

describe("when a worker checks its sandbox again", () => {
  it("waits the interval after a passing check", () => {
    expect(nextCheckDelayMs(0, INTERVAL)).toBe(INTERVAL);
  });

  it("retries a failed check within seconds, backing off to the interval", () => {
    const delays = [1, 2, 3, 4, 5, 8, 12, 100].map((n) => nextCheckDelayMs(n, INTERVAL));
    expect(delays.slice(0, 5)).toEqual([1, 2, 4, 8, 16].map((k) => k * CHECK_RETRY_MS));
    expect(delays[0]).toBeLessThanOrEqual(5_000);
    for (let i = 1; i < delays.length; i++) expect(delays[i]).toBeGreaterThanOrEqual(delays[i - 1] ?? 0);
    expect(delays.at(-1)).toBe(INTERVAL);
  });

  it("never waits longer than a short interval after a failure", () => {
    expect(nextCheckDelayMs(1, 2_000)).toBe(2_000);
    expect(nextCheckDelayMs(30, 10_000)).toBe(10_000);
  });
});
