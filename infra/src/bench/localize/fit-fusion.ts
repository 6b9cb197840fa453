/**
 * Reciprocal-rank fusion, reported by fit.ts beside the shipped ranking for comparison (not
 * shipped): a lexical list fused with a repository-graph list, the no-model recipe recent
 * localization work reports as its best, and the graph list fused into our own ranking with its
 * weight and RRF constant chosen on the training folds only.
 *
 * The lists hold the first stage's candidates only (the rows marked `rescored`): the dump also
 * carries the gold files wherever they rank, and a list over every row would meet the gold file
 * without the other files it must beat.
 */
import { type RescoreFeatures, type RescoreWeights, scoreFeatures } from "@fixloop/worker/localize";
import { assignFolds } from "./folds";
import { rankOfLastGold } from "./gold-rank";

export interface FusionInstance {
  id: string;
  repo: string;
  gold: string[];
  rows: RescoreFeatures[];
}

export interface FusionParams {
  /** The RRF constant: a list's file at rank r (0-based) counts 1 / (k + r + 1). */
  k: number;
  /** The graph list's weight beside ours. */
  graph: number;
}

/** The parameters the per-fold choice tries, in this order (the first best wins a tie). */
export const FUSION_GRID: readonly FusionParams[] = [1, 10, 60].flatMap((k) =>
  [0, 0.1, 0.25, 0.5, 1].map((graph) => ({ k, graph })),
);

/** Each row's 0-based rank by `value` among the rows it is positive for (others are absent). */
function ranksBy(rows: readonly RescoreFeatures[], value: (r: RescoreFeatures) => number): (number | undefined)[] {
  const order = rows
    .map((r, i) => ({ i, v: value(r) }))
    .filter((x) => x.v > 0)
    .sort((a, b) => b.v - a.v || a.i - b.i);
  const out: (number | undefined)[] = rows.map(() => undefined);
  order.forEach((x, r) => {
    out[x.i] = r;
  });
  return out;
}

const rrf = (rank: number | undefined, k: number): number => (rank === undefined ? 0 : 1 / (k + rank + 1));

/** Rank of the last gold file under a fused score; a file with no fused score is not ranked. */
const fusedGoldRank = (inst: FusionInstance, score: (i: number) => number): number | null =>
  rankOfLastGold(inst.rows, inst.gold, (i) => {
    const s = score(i);
    return s > 0 ? s : undefined;
  });

const candidate = (r: RescoreFeatures, v: number): number => (r.rescored ? v : 0);

/** The lexical list (BM25 over file contents) fused with the graph list (import proximity to the best files). */
export function lexGraphRank(inst: FusionInstance, k = 60): number | null {
  const lex = ranksBy(inst.rows, (r) => candidate(r, r.lex));
  const graph = ranksBy(inst.rows, (r) => candidate(r, r.graph));
  return fusedGoldRank(inst, (i) => rrf(lex[i], k) + rrf(graph[i], k));
}

/** Our ranking under weights `w` fused with the graph list. */
export function fusedRank(inst: FusionInstance, w: RescoreWeights, p: FusionParams): number | null {
  const ours = ranksBy(inst.rows, (r) => scoreFeatures(r, w));
  const graph = ranksBy(inst.rows, (r) => candidate(r, r.graph));
  return fusedGoldRank(inst, (i) => rrf(ours[i], p.k) + p.graph * rrf(graph[i], p.k));
}

const objective = (ranks: readonly (number | null)[]): number =>
  ranks.reduce<number>((a, r) => a + (r === null ? 0 : (r <= 1 ? 1 : 0) + (r <= 5 ? 1 : 0) + 0.5 / r), 0);

/**
 * k-fold cross-validation of the fusion: each fold is ranked with the second-stage weights fitted
 * without it (`weightsOfFold`, as fit.ts's crossValidate fitted them on the same folds) and with
 * the fusion parameters that do best on the other folds under those weights.
 */
export function crossValidateFusion(
  data: readonly FusionInstance[],
  weightsOfFold: readonly RescoreWeights[],
  { k = 5, seed = 30, byRepo = false }: { k?: number; seed?: number; byRepo?: boolean } = {},
): { ranks: Map<string, number | null>; params: FusionParams[] } {
  const foldOf = assignFolds(data, { k, seed, byRepo });
  const ranks = new Map<string, number | null>();
  const params: FusionParams[] = [];
  for (let f = 0; f < k; f++) {
    const w = weightsOfFold[f];
    if (!w) throw new Error(`no weights for fold ${f}`);
    const train = data.filter((d) => foldOf.get(d.id) !== f);
    let best: { p: FusionParams; v: number } | undefined;
    for (const p of FUSION_GRID) {
      const v = objective(train.map((d) => fusedRank(d, w, p)));
      if (!best || v > best.v + 1e-9) best = { p, v };
    }
    const chosen = best?.p ?? { k: 60, graph: 0 };
    params.push(chosen);
    for (const d of data) if (foldOf.get(d.id) === f) ranks.set(d.id, fusedRank(d, w, chosen));
  }
  return { ranks, params };
}
