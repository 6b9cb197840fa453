import { describe, expect, it } from "vitest";
import { crossValidate, type FeatureInstance, fitWeights, goldRank, NEUTRAL, recallOf } from "./fit";
import { crossValidateListwise, fitListwise, listwiseRank } from "./fit-listwise";
import { featureRow as row } from "./rows.testkit";

/** Gold wins on the title, a decoy on lexical matches: only a high title weight ranks gold first. */
const titleWins = (id: string, repo: string): FeatureInstance => ({
  id,
  repo,
  gold: ["gold.py"],
  rows: [row("decoy.py", { lex: 0.9 }), row("gold.py", { lex: 0.3, title: 1 }), row("other.py", { lex: 0.2 })],
});

describe("second-stage fit and cross-validation", () => {
  it("ranks by the weighted signals and fits the weight that helps", () => {
    const data = Array.from({ length: 20 }, (_, i) => titleWins(`t-${i}`, `r${i % 4}`));
    expect(goldRank(data[0] as FeatureInstance, NEUTRAL)).toBe(2);
    expect(recallOf(data.map((d) => goldRank(d, NEUTRAL)))["@1"]).toBe(0);
    const fitted = fitWeights(data);
    expect(recallOf(data.map((d) => goldRank(d, fitted)))["@1"]).toBe(1);
    expect(goldRank({ ...(data[0] as FeatureInstance), gold: ["absent.py"] }, NEUTRAL)).toBeNull();
  });

  it("ranks each instance once, with weights fitted without its fold; the same folds for the same seed", () => {
    const data = Array.from({ length: 23 }, (_, i) => titleWins(`t-${i}`, `r${i % 6}`));
    const cv = crossValidate(data, { k: 5, seed: 30 });
    expect(cv.ranks.size).toBe(23);
    expect(cv.folds.map((f) => f.size).reduce((a, b) => a + b, 0)).toBe(23);
    expect(Math.max(...cv.folds.map((f) => f.size)) - Math.min(...cv.folds.map((f) => f.size))).toBeLessThanOrEqual(1);
    expect(crossValidate(data, { k: 5, seed: 30 }).ranks).toEqual(cv.ranks);
    // By repository: one repository's instances share their fold, hence their weights.
    const grouped = crossValidate(data, { k: 5, seed: 30, byRepo: true });
    for (const d of data)
      for (const e of data)
        if (d.repo === e.repo) expect(grouped.weightsOf.get(d.id)).toBe(grouped.weightsOf.get(e.id));
  });

  it("measures a fold on weights that never saw it: a pattern only the held-out repository shows is not learnt", () => {
    // Four repositories where gold wins on the title; one where gold wins on lexical matches only.
    const lexWins = (id: string): FeatureInstance => ({
      id,
      repo: "odd",
      gold: ["gold.py"],
      rows: [row("decoy.py", { lex: 0.2, title: 0.6 }), row("gold.py", { lex: 0.5 })],
    });
    const data = [
      ...Array.from({ length: 16 }, (_, i) => titleWins(`t-${i}`, `r${i % 4}`)),
      ...Array.from({ length: 4 }, (_, i) => lexWins(`odd-${i}`)),
    ];
    const grouped = crossValidate(data, { k: 5, seed: 30, byRepo: true });
    const odd = data.filter((d) => d.repo === "odd");
    const alone = fitWeights(odd);
    expect(odd.every((d) => goldRank(d, alone) === 1)).toBe(true);
    expect(odd.every((d) => grouped.ranks.get(d.id) === 2)).toBe(true);
  });

  it("the listwise learner fits the helpful term, gives the same weights on the same data, and holds out folds", () => {
    const data = Array.from({ length: 20 }, (_, i) => titleWins(`t-${i}`, `r${i % 4}`));
    const w = fitListwise(data);
    expect(w.title).toBeGreaterThan(0);
    expect(fitListwise(data)).toEqual(w);
    expect(data.every((d) => listwiseRank(d, w) === 1)).toBe(true);
    const odd: FeatureInstance[] = Array.from({ length: 4 }, (_, i) => ({
      id: `odd-${i}`,
      repo: "odd",
      gold: ["gold.py"],
      rows: [row("decoy.py", { lex: 0.2, title: 0.6 }), row("gold.py", { lex: 0.5 })],
    }));
    const ranks = crossValidateListwise([...data.slice(0, 16), ...odd], { k: 5, seed: 30, byRepo: true });
    expect(ranks.size).toBe(20);
    expect(odd.every((d) => ranks.get(d.id) === 2)).toBe(true);
  });
});
