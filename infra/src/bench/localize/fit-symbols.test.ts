import { describe, expect, it } from "vitest";
import {
  crossValidateSymbols,
  fitSymbolMerge,
  mergedRecall,
  recallByFileRank,
  type SymbolInstance,
} from "./fit-symbols";

/** Gold is the first file's second symbol; a close second file's best symbol outranks it unless the merge keeps to the first file. */
const inst = (id: string): SymbolInstance => ({
  id,
  repo: `r${id.length % 3}`,
  gold: ["a.py::A.stop"],
  files: [
    {
      path: "a.py",
      score: 2,
      symbols: [
        { name: "A.run", score: 3 },
        { name: "A.stop", score: 2.4 },
      ],
    },
    ...Array.from({ length: 9 }, (_, i) => ({
      path: `b${i}.py`,
      score: 1.9 - i * 0.01,
      symbols: [{ name: `B${i}.run`, score: 1 }],
    })),
  ],
});

describe("function-level merge fit", () => {
  it("fits a file exponent that keeps the gold symbol in the first ten, and measures each fold on a fit without it", () => {
    const data = Array.from({ length: 12 }, (_, i) => inst(`i-${i}`));
    expect(mergedRecall(data[0] as SymbolInstance, { fileExp: 1, perFile: 10, symExp: 1, rankDecay: 0 })).toBe(0);
    const w = fitSymbolMerge(data);
    expect(mergedRecall(data[0] as SymbolInstance, w)).toBe(1);
    const cv = crossValidateSymbols(data, { k: 5, seed: 30 });
    expect(cv.recallOf.size).toBe(12);
    expect(cv.folds.map((f) => f.size).reduce((a, b) => a + b, 0)).toBe(12);
    expect(cv.recall10).toBe(1);
    expect(crossValidateSymbols(data, { k: 5, seed: 30 }).folds).toEqual(cv.folds);
  });

  it("splits function recall by whether the gold file ranks first", () => {
    const w = { fileExp: 6, perFile: 10, symExp: 2, rankDecay: 0.5 };
    const found = inst("found");
    // The gold file second, its symbol one no file lists: counted apart, at 0.
    const lower: SymbolInstance = { ...inst("lower"), gold: ["b0.py::B0.stop"] };
    const missing: SymbolInstance = { ...inst("missing"), gold: ["c.py::C.run"], files: [] };
    expect(recallByFileRank([found, lower, missing], w)).toEqual({
      first: { n: 1, recall10: 1 },
      rest: { n: 2, recall10: 0 },
    });
  });
});
