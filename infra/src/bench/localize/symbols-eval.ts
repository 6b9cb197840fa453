/**
 * Function-level localization figures: the gold symbols are the innermost functions/classes
 * whose line span the gold patch's hunks touch in the pre-change file; a method's ranked list
 * is compared with them by `path::name`.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  bm25Texts,
  fileSymbols,
  innermostAt,
  SYMBOL_MERGE,
  type SymbolCandidates,
  type SymbolMergeWeights,
  symbolsAcrossFiles,
  termCounts,
} from "@fixloop/worker/localize";

const key = (path: string, name: string): string => `${path}::${name}`;

/** Old-file lines each file's hunks touch: removed lines, or the line an insertion follows. */
export function touchedOldLines(patch: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  let file: string | undefined;
  let line = 0;
  for (const l of patch.split("\n")) {
    const header = /^--- (?:a\/)?(.+)$/.exec(l);
    if (header) {
      file = header[1] === "/dev/null" ? undefined : header[1];
      continue;
    }
    const hunk = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/.exec(l);
    if (hunk) {
      line = Number(hunk[1]);
      continue;
    }
    if (!file || l.startsWith("+++")) continue;
    const lines = out.get(file) ?? [];
    out.set(file, lines);
    if (l.startsWith("-")) lines.push(line++);
    else if (l.startsWith("+")) lines.push(Math.max(1, line - 1));
    else if (l.startsWith(" ")) line++;
  }
  return out;
}

/** The gold symbols of an instance, read from its materialized pre-change tree. */
export async function goldSymbols(dir: string, patch: string): Promise<string[]> {
  const gold = new Set<string>();
  for (const [path, lines] of touchedOldLines(patch)) {
    const text = await readFile(join(dir, path), "utf8").catch(() => undefined);
    if (text === undefined) continue;
    const symbols = await fileSymbols(path, text);
    for (const l of lines) {
      const s = innermostAt(symbols, l);
      if (s) gold.add(key(path, s.name));
    }
  }
  return [...gold];
}

/** Symbols asked of the localizer per file: the most any merge the fit tries keeps. */
export const SYMBOLS_PER_FILE = 20;

/** The localizer's files with their ranked symbols, as the function-level fit reads them. */
export function symbolCandidates(
  files: readonly { path: string; score: number; symbols?: readonly { name: string; score: number }[] }[],
): SymbolCandidates[] {
  return files.map((f) => ({
    path: f.path,
    score: f.score,
    symbols: (f.symbols ?? []).map((s) => ({ name: s.name, score: s.score })),
  }));
}

/** The localizer's symbols across its files, merged as the worker merges them. */
export function localizerSymbols(files: readonly SymbolCandidates[], w: SymbolMergeWeights = SYMBOL_MERGE): string[] {
  return symbolsAcrossFiles(files, w).map((s) => key(s.path, s.name));
}

/** Baseline: every symbol of the given files ranked by BM25 of its text against the issue. */
export async function bm25Symbols(dir: string, paths: readonly string[], issue: string): Promise<string[]> {
  const keys: string[] = [];
  const texts: string[] = [];
  for (const path of paths) {
    const text = await readFile(join(dir, path), "utf8").catch(() => undefined);
    if (text === undefined) continue;
    const lines = text.split("\n");
    for (const s of await fileSymbols(path, text).catch(() => [])) {
      keys.push(key(path, s.name));
      texts.push(lines.slice(s.startLine - 1, s.endLine).join("\n"));
    }
  }
  const scores = bm25Texts(texts, termCounts(issue));
  return keys
    .map((k, i) => ({ k, v: scores[i] ?? 0 }))
    .sort((a, b) => b.v - a.v)
    .map((s) => s.k);
}

/** Share of the gold symbols within the first `k` ranked; undefined when there is no gold symbol. */
export function symbolRecall(gold: readonly string[], ranked: readonly string[], k: number): number | undefined {
  if (gold.length === 0) return undefined;
  const top = new Set(ranked.slice(0, k));
  return gold.filter((g) => top.has(g)).length / gold.length;
}
