export { bm25Baseline } from "./baseline";
export { LocalizeCache, type LocalizeCacheOptions } from "./cache";
export { type DirectoryOptions, filesFromDirectory, type RepoFile } from "./files";
export { type LocalizedFile, type LocalizeInput, type LocalizeResult, localize } from "./localize";
export { buildImportGraph } from "./repo-graph";
export { ImportGraph } from "./graph";
export { splitIssue } from "./issue-text";
