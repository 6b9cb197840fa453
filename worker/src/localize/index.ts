export { bm25Baseline } from "./baseline";
export { LocalizeCache, type LocalizeCacheOptions } from "./cache";
export { type DirectoryOptions, filesFromDirectory, type RepoFile } from "./files";
export { type LocalizedFile, type LocalizeInput, type LocalizeResult, localize } from "./localize";
export { buildImportGraph } from "./repo-graph";
export { ImportGraph } from "./graph";
export { splitIssue } from "./issue-text";
export { ELIDED, skeleton } from "./skeleton";
export { type FileSymbol, fileSymbols, innermostAt } from "./symbols";
export { bm25Texts, type RankedSymbol, rankSymbols, stackFrames } from "./symbols.rank";
export {
  type MergedSymbol,
  SYMBOL_MERGE,
  type SymbolCandidates,
  type SymbolMergeWeights,
  symbolsAcrossFiles,
} from "./symbols.across";
export { termCounts } from "./tokenize";
export { limitFiles, type LimitedFiles } from "./limit";
export { setLocalizeThreads } from "./threads";
export { RESCORE } from "./rank";
export { type RescoreFeatures, type RescoreWeights, scoreFeatures } from "./rescore";
