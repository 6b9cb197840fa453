/**
 * Fits the localizer's second-stage weights (RESCORE in worker/src/localize/rank.ts) on dumped
 * signals and cross-validates the fit:
 *   tsx infra/src/bench/localize/eval.ts --mirror MIRROR_ROOT --features /tmp/feat.jsonl
 *   tsx infra/src/bench/localize/fit.ts --features /tmp/feat.jsonl [--k 5] [--seed 30]
 * prints the weights fitted on every instance (paste them into RESCORE) and k-fold figures:
 * each fold is ranked with weights fitted on the other folds only, from a neutral start.
 * For comparison (not shipped) it also prints the listwise learner of fit-listwise.ts and the
 * reciprocal-rank fusions of fit-fusion.ts, cross-validated on the same folds.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  RESCORE,
  type RescoreFeatures,
  type RescoreWeights,
  SYMBOL_MERGE,
  type SymbolCandidates,
  scoreFeatures,
} from "@fixloop/worker/localize";
import {
  crossValidateSymbols,
  fitSymbolMerge,
  mergedRecall,
  recallByFileRank,
  type SymbolInstance,
} from "./fit-symbols";
import { crossValidateFusion, lexGraphRank } from "./fit-fusion";
import { rankOfLastGold } from "./gold-rank";
import { crossValidateListwise } from "./fit-listwise";
import { assignFolds } from "./folds";

export interface FeatureInstance {
  id: string;
  repo: string;
  gold: string[];
  /** The localizer's own rank of the gold files in the run that dumped the signals. */
  rank?: number | null;
  rows: RescoreFeatures[];
  /** The localizer's top files with their ranked symbols, and the gold symbols (function-level fit). */
  symbols?: { gold: string[]; files: SymbolCandidates[] };
}

/** The instances with at least one gold symbol, in the shape the function-level fit reads. */
export function symbolInstances(data: readonly FeatureInstance[]): SymbolInstance[] {
  return data.flatMap((d) =>
    d.symbols && d.symbols.gold.length > 0
      ? [{ id: d.id, repo: d.repo, gold: d.symbols.gold, files: d.symbols.files }]
      : [],
  );
}

/** Where the fit starts: the first stage's weights, and no title, chunk or docs term (no tune-set knowledge). */
export const NEUTRAL: RescoreWeights = {
  lex: 1.8,
  path: 0.6,
  mention: 2,
  mentionCap: 2,
  def: 1.2,
  defCap: 2,
  usage: 0.4,
  usageCap: 1.5,
  graph: 0.15,
  title: 0.5,
  chunk: 0.5,
  chunkTitle: 0.5,
  test: 0.25,
  docs: 0,
};

/** 1-based rank of the last gold file among the instance's rows under `w` (null: a gold file was not a candidate). */
export function goldRank(inst: FeatureInstance, w: RescoreWeights): number | null {
  return rankOfLastGold(inst.rows, inst.gold, (i) => scoreFeatures(inst.rows[i] as RescoreFeatures, w));
}

export interface Recall {
  "@1": number;
  "@3": number;
  "@5": number;
  "@10": number;
  n: number;
}

export function recallOf(ranks: readonly (number | null)[]): Recall {
  const at = (k: number) => ranks.filter((r) => r !== null && r <= k).length / (ranks.length || 1);
  return { "@1": at(1), "@3": at(3), "@5": at(5), "@10": at(10), n: ranks.length };
}

/** What the fit maximizes: recall@1 + recall@5 + half of the mean reciprocal rank (a smooth tie-breaker). */
function objective(data: readonly FeatureInstance[], w: RescoreWeights): number {
  let sum = 0;
  for (const inst of data) {
    const r = goldRank(inst, w);
    if (r === null) continue;
    sum += (r <= 1 ? 1 : 0) + (r <= 5 ? 1 : 0) + 0.5 / r;
  }
  return sum / (data.length || 1);
}

const KEYS = Object.keys(NEUTRAL) as (keyof RescoreWeights)[];
const FACTORS = [0.25, 0.5, 0.7, 0.85, 1.15, 1.4, 2, 4];
const DOCS_STEPS = [-1, -0.5, -0.25, 0.25, 0.5];

/** Coordinate search from `start`: each weight in turn is scaled (docs: shifted) while that helps. */
export function fitWeights(
  data: readonly FeatureInstance[],
  start: RescoreWeights = NEUTRAL,
  passes = 6,
): RescoreWeights {
  let w = { ...start };
  let best = objective(data, w);
  for (let pass = 0; pass < passes; pass++) {
    let improved = false;
    for (const key of KEYS) {
      const steps =
        key === "docs" ? DOCS_STEPS.map((d) => w.docs + d) : FACTORS.map((f) => (w[key] === 0 ? f - 0.5 : w[key] * f));
      for (const v of steps) {
        const next = { ...w, [key]: Math.round(v * 1000) / 1000 };
        const score = objective(data, next);
        if (score > best + 1e-9) {
          best = score;
          w = next;
          improved = true;
        }
      }
    }
    if (!improved) break;
  }
  return w;
}

export interface CrossValidation {
  k: number;
  seed: number;
  /** Held-out ranks, one per instance, each from weights fitted without its fold. */
  ranks: Map<string, number | null>;
  recall: Recall;
  folds: { size: number; weights: RescoreWeights }[];
  /** The weights each instance was ranked with (fitted without its fold). */
  weightsOf: Map<string, RescoreWeights>;
}

/**
 * k-fold cross-validation: instances are shuffled with `seed` and dealt into k folds (or, with
 * `byRepo`, whole repositories are dealt, so no repository is both fitted on and measured).
 */
export function crossValidate(
  data: readonly FeatureInstance[],
  { k = 5, seed = 30, byRepo = false }: { k?: number; seed?: number; byRepo?: boolean } = {},
): CrossValidation {
  const foldOf = assignFolds(data, { k, seed, byRepo });
  const ranks = new Map<string, number | null>();
  const folds: CrossValidation["folds"] = [];
  const weightsOf = new Map<string, RescoreWeights>();
  for (let f = 0; f < k; f++) {
    const test = data.filter((d) => foldOf.get(d.id) === f);
    const weights = fitWeights(data.filter((d) => foldOf.get(d.id) !== f));
    folds.push({ size: test.length, weights });
    for (const d of test) {
      ranks.set(d.id, goldRank(d, weights));
      weightsOf.set(d.id, weights);
    }
  }
  return { k, seed, ranks, recall: recallOf([...ranks.values()]), folds, weightsOf };
}

export async function loadFeatures(file: string): Promise<FeatureInstance[]> {
  return (await readFile(file, "utf8"))
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as FeatureInstance);
}

const fmt = (r: Recall) => (["@1", "@3", "@5", "@10"] as const).map((k) => `R${k} ${r[k].toFixed(3)}`).join("  ");

/** The function-level merge: shipped, refitted and cross-validated recall@10 (when symbols were dumped). */
function printSymbolFit(data: readonly FeatureInstance[], k: number, seed: number, out: (l: string) => void): void {
  const sym = symbolInstances(data);
  if (sym.length === 0) return;
  const mean = (w: typeof SYMBOL_MERGE) => sym.reduce((a, d) => a + mergedRecall(d, w), 0) / sym.length;
  out(`function recall@10 on ${sym.length} instances with gold functions/classes:`);
  out(`  shipped SYMBOL_MERGE, in-sample: ${mean(SYMBOL_MERGE).toFixed(3)}`);
  const merge = fitSymbolMerge(sym);
  out(`  refit on all, in-sample:         ${mean(merge).toFixed(3)}`);
  out(`  ${k}-fold CV (seed ${seed}):          ${crossValidateSymbols(sym, { k, seed }).recall10.toFixed(3)}`);
  const split = recallByFileRank(sym, SYMBOL_MERGE);
  out(
    `  shipped, in-sample, gold file first: ${split.first.recall10.toFixed(3)} (${split.first.n} instances); ` +
      `gold file lower: ${split.rest.recall10.toFixed(3)} (${split.rest.n})`,
  );
  out(`merge fitted on all instances (SYMBOL_MERGE): ${JSON.stringify(merge)}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      features: { type: "string" },
      k: { type: "string", default: "5" },
      seed: { type: "string", default: "30" },
    },
  });
  if (!values.features) throw new Error("usage: fit.ts --features FILE [--k 5] [--seed 30]");
  const data = await loadFeatures(values.features);
  const k = Number(values.k);
  const seed = Number(values.seed);
  const out = (l: string) => process.stdout.write(`${l}\n`);
  out(`${data.length} instances`);
  out(`shipped RESCORE, in-sample:        ${fmt(recallOf(data.map((d) => goldRank(d, RESCORE))))}`);
  // The localizer returns its top 10: a gold file below that has no rank of its own there.
  const same = data.filter((d) => {
    const r = goldRank(d, RESCORE);
    return d.rank === undefined || r === d.rank || (d.rank === null && (r === null || r > 10));
  }).length;
  out(`signals reproduce the localizer's rank (top 10) on ${same} of ${data.length} instances`);
  const all = fitWeights(data);
  out(`refit on all, in-sample:           ${fmt(recallOf(data.map((d) => goldRank(d, all))))}`);
  const cv = crossValidate(data, { k, seed });
  out(`${k}-fold CV (seed ${seed}):            ${fmt(cv.recall)}`);
  const grouped = crossValidate(data, { k, seed, byRepo: true });
  out(`${k}-fold CV by repository:        ${fmt(grouped.recall)}`);
  out(`weights fitted on all instances (RESCORE):\n${JSON.stringify(all, null, 2)}`);
  // For comparison (not shipped): the listwise softmax learner of fit-listwise.ts on the same folds.
  for (const byRepo of [false, true]) {
    const ranks = crossValidateListwise(data, { k, seed, byRepo });
    out(
      `listwise learner, ${k}-fold CV${byRepo ? " by repository" : ` (seed ${seed})`}: ${fmt(recallOf([...ranks.values()]))}`,
    );
  }
  // For comparison (not shipped): reciprocal-rank fusion with the graph list (fit-fusion.ts).
  out(`RRF of the lexical and graph lists (k 60), no fit: ${fmt(recallOf(data.map((d) => lexGraphRank(d))))}`);
  for (const [name, run] of [
    [` (seed ${seed})`, cv],
    [" by repository", grouped],
  ] as const) {
    const fused = crossValidateFusion(
      data,
      run.folds.map((f) => f.weights),
      { k, seed, byRepo: run === grouped },
    );
    out(
      `ours fused with the graph list, ${k}-fold CV${name}: ${fmt(recallOf([...fused.ranks.values()]))}  (graph weight per fold: ${fused.params.map((p) => p.graph).join(", ")})`,
    );
  }
  printSymbolFit(data, k, seed, out);
}
