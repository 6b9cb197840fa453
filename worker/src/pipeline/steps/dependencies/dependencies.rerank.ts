import type { LocalizedFile } from "../../../localize";
import type { TreeFile } from "@fixloop/contract";

export interface PoolFile extends LocalizedFile {
  sha: string;
}

/** A reorder of the localizer's best `pool` files, saying what it did (info lines). */
export interface PoolRerank {
  pool: number;
  run(candidates: PoolFile[]): Promise<{ files: PoolFile[]; info: string[] }>;
}

/**
 * Reranks the localizer's pool and keeps the best `top` files that fit the token budget. A
 * failing rerank never fails the step: the localizer's order is kept, with a warning saying why.
 */
export async function rerankPool(
  ranked: LocalizedFile[],
  tree: ReadonlyMap<string, TreeFile>,
  rerank: PoolRerank,
  top: number,
  tokenBudget: number,
): Promise<{ files: LocalizedFile[]; info: string[]; warnings: string[] }> {
  const candidates = ranked.flatMap((f) => {
    const entry = tree.get(f.path);
    return entry ? [{ ...f, sha: entry.sha }] : [];
  });
  let order: LocalizedFile[] = ranked;
  const info: string[] = [];
  const warnings: string[] = [];
  try {
    const r = await rerank.run(candidates);
    order = r.files.map(({ sha: _sha, ...f }) => f);
    info.push(...r.info);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    warnings.push(`Embedding rerank skipped (${why}); the localizer's ranking is kept`);
  }
  const files: LocalizedFile[] = [];
  let used = 0;
  for (const f of order) {
    if (files.length >= top) break;
    const tokens = Math.ceil((tree.get(f.path)?.size ?? 0) / 4);
    if (used + tokens > tokenBudget) continue;
    used += tokens;
    files.push(f);
  }
  return { files, info, warnings };
}
