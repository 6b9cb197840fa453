import { closeSync, openSync, readSync } from "node:fs";
import { contentHash, type FileStats, type LocalizeCache } from "./cache";
import { looksBinary, looksBinaryBytes, type RepoFile } from "./files";
import { isCodePath, type LanguageId, languageOf } from "./languages";
import { type ParsedFile, parseSources } from "./parse";
import { localizeThreads, type ScanItem } from "./threads";
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
/** Below this many files a corpus is indexed in-process (threads would not pay off). */
const THREAD_MIN_FILES = 200;
/** Characters of file content sent to a thread at once. */
const BATCH_CHARS = 1 << 22;

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

/** One buffer for every file read as bytes: each is tokenized before the next is read. */
let readBuffer = Buffer.allocUnsafe(1 << 20);

/** A local file's bytes, in `readBuffer` (valid until the next call); `undefined` if unreadable. */
function readBytes(path: string): Uint8Array | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    let n = 0;
    for (;;) {
      if (n === readBuffer.length) {
        const grown = Buffer.allocUnsafe(readBuffer.length * 2);
        readBuffer.copy(grown, 0, 0, n);
        readBuffer = grown;
      }
      const k = readSync(fd, readBuffer, n, readBuffer.length - n, null);
      if (k === 0) return readBuffer.subarray(0, n);
      n += k;
    }
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
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
  const indexHere = (i: number, known: string | undefined, text: string): void => {
    const key = known ?? contentHash(text);
    stats[i] = cache.stats(key) ?? cache.index(key, text);
    keys[i] = key;
  };
  const threads = localizeThreads();
  const batches: Promise<void>[] = [];
  /** Texts read here, or local files the thread reads itself (no copy of their content to the thread). */
  let batch: { i: number; item: ScanItem; file: RepoFile }[] = [];
  let batchChars = 0;
  // Cut the batch's texts into words on a thread; intern and count them here.
  const flush = (): void => {
    const items = batch;
    batch = [];
    batchChars = 0;
    batches.push(
      threads.scan(items.map((b) => b.item)).then(
        (scanned) => {
          const entries = cache.wordEntries(scanned.words);
          const skipped = new Set(scanned.skipped);
          scanned.files.forEach((f, k) => {
            if (skipped.has(k)) return;
            const i = items[k]?.i ?? -1;
            const key = keys[i] || f.key;
            stats[i] = cache.stats(key) ?? cache.put(key, cache.statsOfScan(entries, f));
            keys[i] = key;
          });
        },
        // A thread that failed: the batch is indexed here instead.
        async () => {
          for (const { i, item, file } of items) {
            const text = typeof item === "string" ? item : await file.read().catch(() => undefined);
            if (text !== undefined && !looksBinary(text)) indexHere(i, keys[i] || undefined, text);
          }
        },
      ),
    );
  };
  const threaded = threads.size > 0 && files.length >= THREAD_MIN_FILES;
  await pool(files, async (file, i) => {
    const key = file.key;
    const known = key !== undefined ? cache.stats(key) : undefined;
    if (known && key !== undefined) {
      stats[i] = known;
      keys[i] = key;
      return;
    }
    const push = (item: ScanItem, chars: number): void => {
      keys[i] = key ?? "";
      batch.push({ i, item, file });
      batchChars += chars;
      if (batchChars >= BATCH_CHARS) flush();
    };
    if (threaded && file.local !== undefined) return push({ path: file.local }, file.size);
    // A local file with a known key is tokenized from its bytes (the same words, without decoding),
    // before anything else is read into the same buffer.
    if (!threaded && file.local !== undefined && key !== undefined) {
      const bytes = readBytes(file.local);
      if (bytes === undefined || looksBinaryBytes(bytes)) return;
      stats[i] = cache.index(key, bytes);
      keys[i] = key;
      return;
    }
    const text = await file.read().catch(() => undefined);
    if (text === undefined || looksBinary(text)) return;
    if (!threaded) return indexHere(i, key, text);
    push(text, text.length);
  });
  if (batch.length > 0) flush();
  await Promise.all(batches);
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

/**
 * Tree-sitter definitions and imports of documents `indices` (cached by content key), in the
 * order given; files not yet cached are parsed together on the parse threads.
 */
export async function parseDocs(
  corpus: Corpus,
  cache: LocalizeCache,
  indices: readonly number[],
): Promise<(ParsedFile | undefined)[]> {
  const out: (ParsedFile | undefined)[] = new Array(indices.length);
  const misses: { at: number; key: string; id: LanguageId; text: string }[] = [];
  await Promise.all(
    indices.map(async (i, at) => {
      const file = corpus.files[i];
      const key = corpus.keys[i];
      const id = file ? languageOf(file.path) : undefined;
      if (!file || key === undefined || !id) return;
      const hit = cache.parsed(key);
      if (hit !== undefined) {
        out[at] = hit ?? undefined;
        return;
      }
      const text = await file.read().catch(() => undefined);
      if (text === undefined) cache.setParsed(key, null);
      else misses.push({ at, key, id, text });
    }),
  );
  const parsed = await parseSources(misses);
  misses.forEach(({ at, key }, k) => {
    out[at] = parsed[k];
    cache.setParsed(key, parsed[k] ?? null);
  });
  return out;
}
