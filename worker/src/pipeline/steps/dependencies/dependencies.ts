import {
  type StepDetail,
  type StepSymbol,
  type ChosenFile,
  type ContextOutput,
  type DependenciesOutput,
} from "@fixloop/contract";
import { limitFiles, localize, type LocalizedFile, SYMBOL_MERGE, symbolsAcrossFiles } from "../../../localize";
import type { RepoFile } from "../../../localize/files";
import { FULL_FILE_CHARS } from "../generating/file-view";
import { rerankPool, type PoolRerank } from "./dependencies.rerank";
import { RERANK_CANDIDATES, type RerankInput, type RerankResult } from "./rerank-model";

export interface DependenciesInput {
  context: ContextOutput;
  title: string;
  body: string;
  readBlob: (sha: string) => Promise<string>;
  top?: number;
  tokenBudget?: number;
  /** Most files searched; a larger repository is searched in part (LOCALIZE_MAX_FILES). */
  maxFiles?: number;
  /** Reorders the localizer's best candidates before the top files are chosen (the embedding rerank). */
  rerank?: PoolRerank;
  /** The model-assisted rerank of the top candidates, when a model is at hand. */
  modelRerank?: (candidates: RerankInput["candidates"]) => Promise<RerankResult>;
}

const DEFAULT_TOP = 8;
const size = (x: unknown): number => (Array.isArray(x) ? x.length : typeof x === "number" ? x : 0);
const DEFAULT_TOKEN_BUDGET = 24_000;
/** Top symbols kept in full per file in the views, and how many the step lists across its files. */
const SYMBOLS_PER_FILE = 5;
const SYMBOLS_SHOWN = 10;

type Ranked = LocalizedFile & { size: number };

/** The best files in `order` that fit the token budget (a long file counts as its skeleton). */
function withinBudget(order: Ranked[], top: number, budget: number): Ranked[] {
  const out: Ranked[] = [];
  let used = 0;
  for (const f of order) {
    if (out.length >= top) break;
    const tokens = Math.ceil(Math.min(f.size, FULL_FILE_CHARS) / 4);
    if (used + tokens > budget) continue;
    used += tokens;
    out.push(f);
  }
  return out;
}

/** A compact map of the repository: directories with their file counts, chosen files' folders first. */
export function repoMap(paths: string[], chosen: string[], maxLines = 60): string {
  const dirs = new Map<string, number>();
  for (const p of paths) {
    const d = p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : ".";
    dirs.set(d, (dirs.get(d) ?? 0) + 1);
  }
  const hot = new Set(chosen.map((p) => (p.includes("/") ? p.slice(0, p.lastIndexOf("/")) : ".")));
  const ordered = [...dirs.entries()].sort(
    (a, b) => Number(hot.has(b[0])) - Number(hot.has(a[0])) || a[0].localeCompare(b[0]),
  );
  const lines = ordered.slice(0, maxLines).map(([d, n]) => `${d}/ (${n} files)`);
  if (ordered.length > maxLines) lines.push(`... and ${ordered.length - maxLines} more directories`);
  return lines.join("\n");
}

/** Step 3: ranks files with the localizer (tree-sitter import graph + lexical + mentions), reading blobs lazily. */
export async function dependencies(
  input: DependenciesInput,
): Promise<{ output: DependenciesOutput; detail: StepDetail; cost?: RerankResult["cost"] }> {
  const bySha = new Map(input.context.files.map((f) => [f.path, f]));
  const limited = limitFiles(
    input.context.files.map((f) => ({ path: f.path, size: f.size, key: f.sha, read: () => input.readBlob(f.sha) })),
    input.title,
    input.body,
    input.maxFiles ?? Number.POSITIVE_INFINITY,
  );
  const files: RepoFile[] = limited.files;
  const started = performance.now();
  const top = input.top ?? DEFAULT_TOP;
  const budget = input.tokenBudget ?? DEFAULT_TOKEN_BUDGET;
  const result = await localize({
    files,
    issueTitle: input.title,
    issueBody: input.body,
    // Without a rerank the localizer applies the budget itself and reads no spare candidates.
    top: Math.max(top, input.rerank?.pool ?? 0, input.modelRerank ? RERANK_CANDIDATES : 0),
    ...(input.rerank || input.modelRerank ? {} : { tokenBudget: budget }),
    symbols: Math.max(SYMBOLS_PER_FILE, SYMBOL_MERGE.perFile),
  });
  const keep = input.modelRerank ? Math.max(top, RERANK_CANDIDATES) : top;
  const pool = input.rerank
    ? await rerankPool(result.files, bySha, input.rerank, keep, input.modelRerank ? Infinity : budget)
    : undefined;
  const warnings: string[] = [...(limited.note ? [limited.note] : []), ...(pool?.warnings ?? [])];
  const contents = new Map<string, string>();
  const ranked: Ranked[] = [];
  for (const f of pool?.files ?? result.files) {
    const entry = bySha.get(f.path);
    if (!entry) {
      warnings.push(`${f.path} was ranked but is not in the tree; dropped`);
      continue;
    }
    try {
      contents.set(f.path, await input.readBlob(entry.sha));
      ranked.push({ ...f, size: entry.size });
    } catch {
      warnings.push(`${f.path} could not be read; dropped`);
    }
  }
  const symbolNames = (f: LocalizedFile) => (f.symbols ?? []).slice(0, SYMBOLS_PER_FILE).map((s) => s.name);
  const rerank = input.modelRerank
    ? await input.modelRerank(
        ranked
          .slice(0, RERANK_CANDIDATES)
          .map((f) => ({ path: f.path, content: contents.get(f.path) ?? "", symbols: symbolNames(f) })),
      )
    : undefined;
  if (rerank?.detail.status === "failed") warnings.push(rerank.detail.note);
  const byPath = new Map(ranked.map((f) => [f.path, f]));
  const order = rerank ? rerank.order.flatMap((p) => byPath.get(p) ?? []) : ranked;
  const picked = new Map((rerank?.detail.picks ?? []).map((p) => [p.path, p.reason]));
  const chosen: ChosenFile[] = withinBudget(order, top, budget).map((f) => ({
    path: f.path,
    score: f.score,
    reasons: picked.has(f.path) ? [`picked by the model: ${picked.get(f.path)}`, ...f.reasons] : f.reasons,
    content: contents.get(f.path) ?? "",
    symbols: symbolNames(f),
  }));
  // Best first across the chosen files, merged as the bench's function-level recall measures it.
  const merged = symbolsAcrossFiles(
    chosen.map((c) => ({ path: c.path, score: c.score, symbols: byPath.get(c.path)?.symbols ?? [] })),
  );
  const symbols: StepSymbol[] = merged.slice(0, SYMBOLS_SHOWN).flatMap((m) => {
    const s = byPath.get(m.path)?.symbols?.find((x) => x.name === m.name);
    if (!s) return [];
    const { name, kind, startLine, endLine, reasons } = s;
    return [{ path: m.path, name, kind, startLine, endLine, reasons }];
  });
  const testsNear: Record<string, string[]> = {};
  for (const f of chosen) testsNear[f.path] = result.testFilesNear([f.path]);
  if (!chosen.length) warnings.push("No file could be linked to the issue; the model sees only the repository map");
  const ms = Math.round(performance.now() - started);
  const info = [
    `Import graph: ${size(result.graph.nodes)} files, ${size(result.graph.edges)} import edges`,
    ...(pool?.info ?? []),
    `Verified ${ranked.length} of ${result.files.length} ranked files exist at ${input.context.commitSha.slice(0, 7)}; chose ${chosen.length} (${ms} ms)`,
    ...(rerank && rerank.detail.status !== "failed" ? [rerank.detail.note] : []),
    ...chosen.map((f) => `${f.path}: ${f.reasons.join("; ") || "ranked relevant"}`),
  ];
  const best = chosen[0]?.reasons.some((r) => /mention/i.test(r)) ? 95 : chosen.length ? 80 : 30;
  return {
    output: {
      files: chosen,
      testsNear,
      repoMap: repoMap(
        input.context.files.map((f) => f.path),
        chosen.map((f) => f.path),
      ),
      graph: { nodes: size(result.graph.nodes), edges: size(result.graph.edges) },
    },
    detail: {
      files: chosen.map((f) => f.path),
      info,
      warnings,
      score: best,
      ...(symbols.length ? { symbols } : {}),
      ...(rerank ? { rerank: rerank.detail } : {}),
    },
    ...(rerank ? { cost: rerank.cost } : {}),
  };
}
