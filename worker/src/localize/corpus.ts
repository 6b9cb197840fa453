import { contentHash, type FileStats, type LocalizeCache } from "./cache";
import { looksBinary, type RepoFile } from "./files";
import { isCodePath, languageOf } from "./languages";
import { type ParsedFile, parseSource } from "./parse";
import { isSafeRepoPath } from "./paths";
import { type Doc, isTestPath } from "./rank";

/** The indexed files of one repository for one localization run. */
export interface Corpus {
  docs: Doc[];
  files: RepoFile[];
  keys: string[];
  byPath: Map<string, number>;
  skipped: number;
}

const CONCURRENCY = 64;

async function pool<T>(items: readonly T[], work: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const run = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      const item = items[i];
      if (item !== undefined) await work(item, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, run));
}

/**
 * Token statistics of every file, from the cache when its key (or content hash) is known.
 * Unsafe paths (absolute, `..`), unreadable and binary files are skipped.
 */
export async function buildCorpus(input: readonly RepoFile[], cache: LocalizeCache): Promise<Corpus> {
  const seen = new Set<string>();
  const files = input.filter((f) => isSafeRepoPath(f.path) && !seen.has(f.path) && seen.add(f.path));
  const stats: (FileStats | undefined)[] = new Array(files.length);
  const keys: string[] = new Array(files.length).fill("");
  await pool(files, async (file, i) => {
    let key = file.key;
    let s = key !== undefined ? cache.stats(key) : undefined;
    if (!s) {
      const text = await file.read().catch(() => undefined);
      if (text === undefined || looksBinary(text)) return;
      key ??= contentHash(text);
      s = cache.stats(key) ?? cache.index(key, text);
    }
    stats[i] = s;
    keys[i] = key ?? "";
  });
  const corpus: Corpus = { docs: [], files: [], keys: [], byPath: new Map(), skipped: input.length - files.length };
  files.forEach((file, i) => {
    const s = stats[i];
    if (!s) {
      corpus.skipped++;
      return;
    }
    corpus.byPath.set(file.path, corpus.docs.length);
    corpus.docs.push({ path: file.path, stats: s, code: isCodePath(file.path), test: isTestPath(file.path) });
    corpus.files.push(file);
    corpus.keys.push(keys[i] ?? "");
  });
  return corpus;
}

/** Tree-sitter definitions and imports of document `i` (cached by content key). */
export async function parseDoc(corpus: Corpus, cache: LocalizeCache, i: number): Promise<ParsedFile | undefined> {
  const file = corpus.files[i];
  const key = corpus.keys[i];
  const lang = file ? languageOf(file.path) : undefined;
  if (!file || key === undefined || !lang) return undefined;
  const hit = cache.parsed(key);
  if (hit !== undefined) return hit ?? undefined;
  const text = await file.read().catch(() => undefined);
  const parsed = text === undefined ? undefined : await parseSource(lang, text).catch(() => undefined);
  cache.setParsed(key, parsed ?? null);
  return parsed;
}
