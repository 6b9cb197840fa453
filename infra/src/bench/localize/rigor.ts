/**
 * What a reader of a retrieval result asks before believing it: how wide the uncertainty is (a
 * bootstrap over issues), whether the gain over the baseline holds issue by issue (a paired
 * bootstrap of the difference), how much the figure moves from fold to fold and seed to seed, and
 * what the cross-validation does not cover.
 */
import { crossValidate, type CrossValidation, type FeatureInstance, recallOf } from "./fit";
import { TARGETS } from "./figures";
import { random } from "./folds";

export interface Interval {
  value: number;
  low: number;
  high: number;
}

const KS = [1, 5] as const;
export const BOOTSTRAP = { samples: 2000, seed: 30 };

const hit = (rank: number | null | undefined, k: number): number => (rank != null && rank <= k ? 1 : 0);

/**
 * The mean over issues of `score(i)` with its 95% percentile interval, from `samples` resamples of
 * the issues with replacement. A paired difference is a `score` that subtracts two methods' hits.
 */
export function bootstrap(n: number, score: (i: number) => number, opts = BOOTSTRAP): Interval {
  if (n === 0) return { value: Number.NaN, low: Number.NaN, high: Number.NaN };
  const values = Array.from({ length: n }, (_, i) => score(i));
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const rand = random(opts.seed); // the same resamples on every run
  const means: number[] = [];
  for (let s = 0; s < opts.samples; s++) {
    let sum = 0;
    for (let j = 0; j < n; j++) sum += values[Math.floor(rand() * n)] ?? 0;
    means.push(sum / n);
  }
  means.sort((a, b) => a - b);
  const at = (q: number) => means[Math.min(means.length - 1, Math.max(0, Math.round(q * (means.length - 1))))] ?? mean;
  return { value: mean, low: at(0.025), high: at(0.975) };
}

const f3 = (x: number) => x.toFixed(3);
const signed = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(3)}`;
const range = (xs: number[]) => `${f3(Math.min(...xs))}–${f3(Math.max(...xs))}`;

/** Held-out recall@k of each fold, in fold order. */
export function foldRecalls(cv: CrossValidation, k: number): number[] {
  const byFold = new Map<object, (number | null)[]>();
  for (const [id, rank] of cv.ranks) {
    const w = cv.weightsOf.get(id);
    if (!w) continue;
    byFold.set(w, [...(byFold.get(w) ?? []), rank]);
  }
  return [...byFold.values()].map((ranks) => recallOf(ranks)[`@${k as 1 | 5}`]);
}

/**
 * Appendix lines for the cross-validated figures of `data`: intervals, the paired gain over the
 * baseline's ranks (`baseline`, by instance id; an issue it did not rank counts as a miss), the
 * spread over folds and over `seeds` other shuffles, and the limits of the protocol.
 */
export function rigorNotes(
  data: readonly FeatureInstance[],
  cv: CrossValidation,
  baseline: ReadonlyMap<string, number | null>,
  seeds: readonly number[] = [31, 32, 33, 34],
): string[] {
  const ids = data.map((d) => d.id);
  const ours = (i: number, k: number) => hit(cv.ranks.get(ids[i] ?? ""), k);
  const base = (i: number, k: number) => hit(baseline.get(ids[i] ?? ""), k);
  const lines = [
    `localize: what the cross-validated figures rest on (${ids.length} issues, ${new Set(data.map((d) => d.repo)).size} repositories)`,
  ];
  for (const k of KS) {
    const r = bootstrap(ids.length, (i) => ours(i, k));
    const d = bootstrap(ids.length, (i) => ours(i, k) - base(i, k));
    const wins = ids.filter((_, i) => ours(i, k) > base(i, k)).length;
    const losses = ids.filter((_, i) => ours(i, k) < base(i, k)).length;
    const target = k === 1 ? TARGETS.r1 : TARGETS.r5;
    const where = target > r.high ? "above" : target < r.low ? "below" : "inside";
    lines.push(
      `recall@${k} ${f3(r.value)} (95% CI ${f3(r.low)}–${f3(r.high)}; the target ${target} is ${where} it); over plain BM25, paired: ${signed(d.value)} (95% CI ${signed(d.low)} to ${signed(d.high)}; ${wins} issues found only by ours, ${losses} only by BM25)`,
    );
  }
  for (const k of KS) lines.push(`recall@${k} per fold (seed ${cv.seed}): ${foldRecalls(cv, k).map(f3).join(", ")}`);
  const others = seeds.map((seed) => crossValidate(data, { k: cv.k, seed }).recall);
  for (const k of KS) {
    const all = [cv.recall[`@${k}`], ...others.map((r) => r[`@${k}`])];
    lines.push(
      `recall@${k} over ${all.length} fold shuffles (seeds ${[cv.seed, ...seeds].join(", ")}): mean ${f3(all.reduce((a, b) => a + b, 0) / all.length)}, range ${range(all)}`,
    );
  }
  lines.push(
    "not covered by the cross-validation: only the second stage's weights (and the symbol merge) are refitted per fold; the signals, candidate counts and search ranges were chosen by people who had seen all of these issues, so the figures are optimistic by an unknown amount",
    "the targets are a published model's figures on 100 other SWE-bench Lite instances, not these: a comparison, not a head-to-head",
  );
  return lines;
}
