import { describe, expect, it } from "vitest";
import { crossValidate, type FeatureInstance } from "./fit";
import { bootstrap, foldRecalls, rigorNotes } from "./rigor";
import { featureRow as row } from "./rows.testkit";

describe("the statistics beside the cross-validated figures", () => {
  it("bootstraps a mean with an interval around it, the same on every run, narrower with more issues", () => {
    const half = (n: number) => bootstrap(n, (i) => i % 2);
    const small = half(20);
    expect(small.value).toBe(0.5);
    expect(small.low).toBeLessThan(0.5);
    expect(small.high).toBeGreaterThan(0.5);
    expect(half(20)).toEqual(small);
    const large = half(2000);
    expect(large.high - large.low).toBeLessThan((small.high - small.low) / 5);
    // Every issue scoring the same: no uncertainty at all.
    expect(bootstrap(30, () => 1)).toEqual({ value: 1, low: 1, high: 1 });
  });

  it("reports a paired gain over the baseline, per-fold and per-seed spread, and the protocol's limits", () => {
    // Gold ranks first on the title signal in every instance; the baseline found a third of them.
    const data: FeatureInstance[] = Array.from({ length: 30 }, (_, i) => ({
      id: `i-${i}`,
      repo: `r${i % 3}`,
      gold: ["gold.py"],
      rows: [row("decoy.py", { lex: 0.9 }), row("gold.py", { lex: 0.3, title: 1 })],
    }));
    const cv = crossValidate(data, { k: 5, seed: 30 });
    expect(foldRecalls(cv, 1)).toEqual([1, 1, 1, 1, 1]);
    const baseline = new Map(data.map((d, i) => [d.id, i % 3 === 0 ? 1 : null]));
    const notes = rigorNotes(data, cv, baseline);
    expect(notes[0]).toContain("30 issues, 3 repositories");
    const r1 = notes.find((l) => l.startsWith("recall@1 1.000"));
    expect(r1).toContain("paired: +0.667");
    expect(r1).toContain("the target 0.66 is below it");
    expect(r1).toContain("20 issues found only by ours, 0 only by BM25");
    expect(notes).toContain("recall@1 per fold (seed 30): 1.000, 1.000, 1.000, 1.000, 1.000");
    expect(
      notes.some((l) => l.startsWith("recall@5 over 5 fold shuffles (seeds 30, 31, 32, 33, 34): mean 1.000")),
    ).toBe(true);
    expect(notes.some((l) => l.includes("optimistic by an unknown amount"))).toBe(true);
  });
});
