import { expect, test } from "vitest";
import { backoffMs, DEFAULT_RETRY_POLICY, retryAfterMs, sleep } from "./models.retry";

test("retry-after is read as seconds, as an HTTP date, or from retry-after-ms", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");
  expect(retryAfterMs(new Headers({ "retry-after": "3" }), now)).toBe(3000);
  expect(retryAfterMs(new Headers({ "retry-after": "0.25" }), now)).toBe(250);
  expect(retryAfterMs(new Headers({ "retry-after": "Wed, 01 Jan 2025 00:00:10 GMT" }), now)).toBe(10_000);
  expect(retryAfterMs(new Headers({ "retry-after-ms": "1500", "retry-after": "9" }), now)).toBe(1500);
  expect(retryAfterMs(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
  expect(retryAfterMs(new Headers(), now)).toBeUndefined();
  expect(retryAfterMs(undefined, now)).toBeUndefined();
});

test("backoff doubles per failure within half and all of the step, up to the cap", () => {
  const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000 };
  for (let i = 0; i < 50; i++) {
    const first = backoffMs(policy, 1);
    const third = backoffMs(policy, 3);
    const tenth = backoffMs(policy, 10);
    expect(first).toBeGreaterThanOrEqual(50);
    expect(first).toBeLessThanOrEqual(100);
    expect(third).toBeGreaterThanOrEqual(200);
    expect(third).toBeLessThanOrEqual(400);
    expect(tenth).toBeLessThanOrEqual(1000);
  }
});

test("sleep rejects as soon as the signal aborts", async () => {
  const controller = new AbortController();
  const started = Date.now();
  const pending = sleep(10_000, controller.signal);
  setTimeout(() => controller.abort(new Error("stop")), 20);
  await expect(pending).rejects.toThrow("stop");
  expect(Date.now() - started).toBeLessThan(1000);
});
