/**
 * Fits how the localizer merges its files' symbols into one list (SYMBOL_MERGE in
 * worker/src/localize/symbols.across.ts) and cross-validates the fit on function-level recall@10:
 * a grid search, so the fit is deterministic and a fold's figure comes from parameters fitted on
 * the other folds only. Run by fit.ts on the signals `eval.ts --features` dumps.
 */
import { type SymbolCandidates, type SymbolMergeWeights, symbolsAcrossFiles } from "@fixloop/worker/localize";
import { shuffled } from "./folds";

export interface SymbolInstance {
  id: string;
  repo: string;
  /** Gold symbols as `path::name` (the innermost functions/classes the fix touches). */
  gold: string[];
  files: SymbolCandidates[];
}

/** The parameters tried, in this order (the first best wins a tie). */
export const MERGE_GRID = {
  fileExp: [1, 1.5, 2, 3, 4, 6, 8],
  perFile: [3, 5, 8, 10, 15, 20],
  symExp: [1, 2],
  rankDecay: [0, 0.5, 1],
};

/** Share of the instance's gold symbols among the first `k` of its merged list. */
export function mergedRecall(inst: SymbolInstance, w: SymbolMergeWeights, k = 10): number {
  if (inst.gold.length === 0) return 0;
  const top = new Set(
    symbolsAcrossFiles(inst.files, w)
      .slice(0, k)
      .map((s) => `${s.path}::${s.name}`),
  );
  return inst.gold.filter((g) => top.has(g)).length / inst.gold.length;
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / (xs.length || 1);

export interface RecallByFileRank {
  /** Instances whose first-ranked file holds a gold symbol. */
  first: { n: number; recall10: number };
  /** The others: the gold file ranks lower, or not among the files at all. */
  rest: { n: number; recall10: number };
}

/**
 * Function recall@10 split by whether the gold file ranks first: how much of the function-level
 * figure the file ranking decides, and how much the symbols inside the right file.
 */
export function recallByFileRank(data: readonly SymbolInstance[], w: SymbolMergeWeights): RecallByFileRank {
  const first: number[] = [];
  const rest: number[] = [];
  for (const d of data) {
    const top = d.files[0]?.path;
    (top !== undefined && d.gold.some((g) => g.startsWith(`${top}::`)) ? first : rest).push(mergedRecall(d, w));
  }
  return { first: { n: first.length, recall10: mean(first) }, rest: { n: rest.length, recall10: mean(rest) } };
}

export function fitSymbolMerge(data: readonly SymbolInstance[]): SymbolMergeWeights {
  let best: { w: SymbolMergeWeights; v: number } | undefined;
  for (const fileExp of MERGE_GRID.fileExp)
    for (const perFile of MERGE_GRID.perFile)
      for (const symExp of MERGE_GRID.symExp)
        for (const rankDecay of MERGE_GRID.rankDecay) {
          const w = { fileExp, perFile, symExp, rankDecay };
          const v = mean(data.map((d) => mergedRecall(d, w)));
          if (!best || v > best.v + 1e-9) best = { w, v };
        }
  return best?.w ?? { fileExp: 1, perFile: 5, symExp: 1, rankDecay: 0 };
}

export interface SymbolCrossValidation {
  /** Mean held-out function-level recall@10. */
  recall10: number;
  n: number;
  folds: { size: number; weights: SymbolMergeWeights }[];
  /** Held-out recall@10 per instance. */
  recallOf: Map<string, number>;
}

/** k-fold cross-validation, instances dealt into folds as fit.ts deals them (same seed, same order). */
export function crossValidateSymbols(
  data: readonly SymbolInstance[],
  { k = 5, seed = 30 }: { k?: number; seed?: number } = {},
): SymbolCrossValidation {
  const foldOf = new Map<string, number>();
  shuffled(data, seed).forEach((d, i) => foldOf.set(d.id, i % k));
  const recallOf = new Map<string, number>();
  const folds: SymbolCrossValidation["folds"] = [];
  for (let f = 0; f < k; f++) {
    const test = data.filter((d) => foldOf.get(d.id) === f);
    const weights = fitSymbolMerge(data.filter((d) => foldOf.get(d.id) !== f));
    folds.push({ size: test.length, weights });
    for (const d of test) recallOf.set(d.id, mergedRecall(d, weights));
  }
  return { recall10: mean([...recallOf.values()]), n: data.length, folds, recallOf };
}
