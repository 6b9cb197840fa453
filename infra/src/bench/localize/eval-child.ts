/**
 * One evaluation method over a batch of materialized instances, in its own process so that
 * its peak RSS is its own. Reads a batch file, writes one JSON line per instance and a final
 * `{ "maxRssKiB": n }` line to stdout.
 */
import { readFile } from "node:fs/promises";
import {
  bm25Baseline,
  filesFromDirectory,
  localize,
  LocalizeCache,
  type RescoreFeatures,
  splitIssue,
  type SymbolCandidates,
} from "@fixloop/worker/localize";
import {
  bm25Symbols,
  goldSymbols,
  localizerSymbols,
  symbolCandidates,
  symbolRecall,
  SYMBOLS_PER_FILE,
} from "./symbols-eval";

export type EvalMethod = "localizer" | "bm25" | "cli";

export interface BatchItem {
  id: string;
  repo: string;
  dir: string;
  issueFile: string;
  /** The gold patch, for function-level figures. */
  patch?: string;
  /** The gold paths: their second-stage signals are reported even when they rank low. */
  gold?: string[];
}

export interface ChildLine {
  id: string;
  ranked: string[];
  seconds: number;
  /** CPU seconds (user + system) of the run's processes, where measured (the CLI's fresh processes). */
  cpuSeconds?: number;
  /** Share of the gold functions/classes in the first 10 ranked symbols (null: no gold symbol). */
  symbolRecall10?: number | null;
  /** The localizer's second-stage signals of its candidates and the gold files. */
  features?: RescoreFeatures[];
  /** The localizer's files with their ranked symbols and the gold symbols, to fit and cross-validate the merge. */
  symbols?: { gold: string[]; files: SymbolCandidates[] };
}

export async function runBatch(
  method: EvalMethod,
  items: readonly BatchItem[],
  shareCache: boolean,
  top: number,
): Promise<ChildLine[]> {
  const caches = new Map<string, LocalizeCache>();
  const out: ChildLine[] = [];
  for (const item of items) {
    const { title, body } = splitIssue(await readFile(item.issueFile, "utf8"));
    let cache: LocalizeCache | undefined;
    if (shareCache) {
      cache = caches.get(item.repo) ?? new LocalizeCache();
      caches.set(item.repo, cache);
    }
    const started = performance.now();
    const files = await filesFromDirectory(item.dir, { statKeys: false });
    const input = { files, issueTitle: title, issueBody: body, top, ...(cache ? { cache } : {}) };
    const features = { include: item.gold ?? [], rows: [] as RescoreFeatures[] };
    const ranked =
      method === "bm25"
        ? await bm25Baseline(input)
        : (await localize({ ...input, symbols: SYMBOLS_PER_FILE, features })).files;
    const seconds = (performance.now() - started) / 1000;
    const line: ChildLine = { id: item.id, ranked: ranked.map((f) => f.path), seconds };
    if (method === "localizer") line.features = features.rows;
    if (item.patch) {
      const gold = await goldSymbols(item.dir, item.patch);
      const files = symbolCandidates(ranked);
      const symbols =
        method === "bm25" ? await bm25Symbols(item.dir, line.ranked, `${title}\n${body}`) : localizerSymbols(files);
      line.symbolRecall10 = symbolRecall(gold, symbols, 10) ?? null;
      if (method === "localizer") line.symbols = { gold, files };
    }
    out.push(line);
    process.stdout.write(`${JSON.stringify(out[out.length - 1])}\n`);
  }
  return out;
}

const [, , flag, method, batchFile, share, top] = process.argv;
if (flag === "--child" && (method === "localizer" || method === "bm25") && batchFile) {
  const items = JSON.parse(await readFile(batchFile, "utf8")) as BatchItem[];
  await runBatch(method, items, share === "share", Number(top ?? 10));
  process.stdout.write(`${JSON.stringify({ maxRssKiB: process.resourceUsage().maxRSS })}\n`);
}
