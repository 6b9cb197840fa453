import { describe, expect, it } from "vitest";
import { type FeatureInstance, goldRank, NEUTRAL } from "./fit";
import { crossValidateFusion, fusedRank, lexGraphRank } from "./fit-fusion";
import { featureRow } from "./rows.testkit";

type RescoreFeatures = FeatureInstance["rows"][number];

/** A first-stage candidate (it is in the fusion's lists). */
const row = (path: string, f: Partial<RescoreFeatures>): RescoreFeatures => featureRow(path, { rescored: true, ...f });

/** Gold is second on every signal of ours but first in the graph list. */
const graphWins = (id: string): FeatureInstance => ({
  id,
  repo: `r${id.length % 3}`,
  gold: ["gold.py"],
  rows: [
    row("decoy.py", { lex: 0.9 }),
    row("gold.py", { lex: 0.8, graph: 1 }),
    row("other.py", { lex: 0.2, graph: 0.3 }),
    row("far.py", { lex: 0.1 }),
  ],
});

/** The same, but the graph list favours a decoy: fusing it can only hurt. */
const graphMisleads = (id: string): FeatureInstance => ({
  id,
  repo: `r${id.length % 3}`,
  gold: ["gold.py"],
  rows: [row("gold.py", { lex: 0.9 }), row("decoy.py", { lex: 0.7, graph: 1 }), row("other.py", { lex: 0.2 })],
});

describe("reciprocal-rank fusion with the graph list", () => {
  it("fuses ranks, not scores: graph weight 0 is our ranking, a weight moves a graph leader up", () => {
    const inst = graphWins("a");
    expect(fusedRank(inst, NEUTRAL, { k: 1, graph: 0 })).toBe(goldRank(inst, NEUTRAL));
    expect(fusedRank(inst, NEUTRAL, { k: 1, graph: 0 })).toBe(2);
    expect(fusedRank(inst, NEUTRAL, { k: 1, graph: 1 })).toBe(1);
    // Lexical list: gold 2nd (1/62); graph list: gold 1st (1/61). Decoy: lexical 1st only (1/61).
    expect(lexGraphRank(inst)).toBe(1);
  });

  it("keeps the lists to the first stage's candidates: a gold row dumped from outside them has no list rank", () => {
    const inst = graphWins("b");
    const outside = { ...inst, rows: inst.rows.map((r) => (r.path === "gold.py" ? { ...r, rescored: false } : r)) };
    expect(lexGraphRank(outside)).toBeNull();
    // Our own ranking still scores it (the localizer's final score covers every file); fused, a
    // candidate the graph list holds overtakes it.
    expect(fusedRank(outside, NEUTRAL, { k: 1, graph: 0 })).toBe(2);
    expect(fusedRank(outside, NEUTRAL, { k: 1, graph: 1 })).toBe(3);
  });

  it("chooses the graph weight on the training folds only, and ranks each instance once", () => {
    const helps = Array.from({ length: 20 }, (_, i) => graphWins(`h-${i}`));
    // The second stage's weights held fixed, so only the fusion can move gold up.
    const fixed = Array.from({ length: 5 }, () => NEUTRAL);
    const fused = crossValidateFusion(helps, fixed, { k: 5, seed: 30 });
    expect(fused.ranks.size).toBe(20);
    expect(fused.params.every((p) => p.graph > 0)).toBe(true);
    expect([...fused.ranks.values()].every((r) => r === 1)).toBe(true);

    const hurts = Array.from({ length: 20 }, (_, i) => graphMisleads(`m-${i}`));
    const kept = crossValidateFusion(hurts, fixed, { k: 5, seed: 30 });
    expect(kept.params.every((p) => p.graph === 0)).toBe(true);
    expect([...kept.ranks.values()].every((r) => r === 1)).toBe(true);
    expect(() => crossValidateFusion(hurts, [], { k: 5, seed: 30 })).toThrow(/no weights for fold 0/);
  });
});
