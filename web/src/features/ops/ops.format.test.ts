import { describe, expect, it } from "vitest";
import { ago, count, formatAge, formatDuration } from "./ops.format";

describe("operations figures", () => {
  it("shows durations with the precision they need and ages in whole seconds", () => {
    expect([850, 1_234, 42_000, 245_000, 7_800_000].map(formatDuration)).toEqual([
      "850 ms",
      "1.2 s",
      "42 s",
      "4 min 5 s",
      "2 h 10 min",
    ]);
    expect([400, 8_900, 61_000].map(formatAge)).toEqual(["0 s", "8 s", "1 min 1 s"]);
    expect(ago(new Date(10_000).toISOString(), 10_500)).toBe("just now");
    expect(ago(new Date(10_000).toISOString(), 13_200)).toBe("3 s ago");
  });

  it("keeps large counts short enough for a phone's queue card", () => {
    expect([9_999, 12_345, 1_250_000].map(count)).toEqual(["9,999", "12.3K", "1.3M"]);
  });
});
