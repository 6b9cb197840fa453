/**
 * Function-level localization figures: the gold symbols are the innermost functions/classes
 * whose line span the gold patch's hunks touch in the pre-change file; a method's ranked list
 * is compared with them by `path::name`.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { bm25Texts, fileSymbols, innermostAt, type LocalizedFile, termCounts } from "@fixloop/worker/localize";

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

/** The localizer's symbols across its files: each file's symbols weighted by the file's score. */
export function localizerSymbols(files: readonly LocalizedFile[]): string[] {
  const best = files[0]?.score || 1;
  const all = files.flatMap((f) => {
    const top = f.symbols?.[0]?.score || 1;
    return (f.symbols ?? []).map((s) => ({ k: key(f.path, s.name), v: (s.score / top) * (f.score / best) }));
  });
  return all.sort((a, b) => b.v - a.v).map((s) => s.k);
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
