/**
 * The functions and classes of several ranked files in one list, best first: a symbol counts by
 * its score relative to its file's best symbol, raised to `symExp`, times its file's score
 * relative to the best file, raised to `fileExp` (the higher, the more the list keeps to the first
 * files), divided by (1 + the file's rank) to the power `rankDecay`; at most `perFile` symbols of
 * each file (a name twice in a file, e.g. a property's getter and setter, counts once). Fitted by infra/src/bench/localize/fit.ts (function-level recall@10 on the
 * SWE-bench Lite tune set, cross-validated there).
 */
export const SYMBOL_MERGE = { fileExp: 6, perFile: 10, symExp: 2, rankDecay: 0.5 };
export type SymbolMergeWeights = typeof SYMBOL_MERGE;

/** A ranked file and its ranked symbols (best first), as the localizer returns them. */
export interface SymbolCandidates {
  path: string;
  score: number;
  symbols?: readonly { name: string; score: number }[];
}

export interface MergedSymbol {
  path: string;
  name: string;
  score: number;
}

export function symbolsAcrossFiles(
  files: readonly SymbolCandidates[],
  w: SymbolMergeWeights = SYMBOL_MERGE,
): MergedSymbol[] {
  const best = Math.max(0, ...files.map((f) => f.score)) || 1;
  const all: (MergedSymbol & { at: number })[] = [];
  for (const [rank, f] of files.entries()) {
    const seen = new Set<string>();
    const symbols = (f.symbols ?? []).filter((s) => !seen.has(s.name) && !!seen.add(s.name)).slice(0, w.perFile);
    const top = symbols[0]?.score || 1;
    const weight = Math.max(0, f.score / best) ** w.fileExp / (1 + rank) ** w.rankDecay;
    for (const s of symbols)
      all.push({ path: f.path, name: s.name, score: Math.max(0, s.score / top) ** w.symExp * weight, at: all.length });
  }
  return all.sort((a, b) => b.score - a.score || a.at - b.at).map(({ at: _, ...s }) => s);
}
