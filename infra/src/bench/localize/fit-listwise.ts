/**
 * A second learner for the second stage, reported by fit.ts beside the shipped one for
 * comparison: a linear score over the terms below, fitted by Newton's method on the listwise
 * softmax loss (each instance's gold file against all its rows) with an L2 penalty. The loss is
 * convex, so the fit is deterministic and needs no start. Measured on the 223 tune instances it
 * trades recall@5 for recall@1 against the coordinate search (see fit.ts's output), so RESCORE
 * stays the coordinate search's.
 */
import type { RescoreFeatures } from "@fixloop/worker/localize";
import { assignFolds } from "./folds";
import { rankOfLastGold } from "./gold-rank";

export interface ListwiseInstance {
  id: string;
  repo: string;
  gold: string[];
  rows: RescoreFeatures[];
}

const log = Math.log1p;
const flag = (b: boolean): number => (b ? 1 : 0);

/** The learner's terms of a file's signals, each about [0, 1] (evidence log-scaled). */
export const LISTWISE_TERMS: Record<string, (f: RescoreFeatures) => number> = {
  lex: (f) => f.lex,
  lexSquared: (f) => f.lex * f.lex,
  path: (f) => f.pathMatch,
  title: (f) => f.title,
  chunk: (f) => f.chunk,
  chunkSquared: (f) => f.chunk * f.chunk,
  chunkTitle: (f) => f.chunkTitle,
  mention: (f) => log(f.mention),
  mentioned: (f) => flag(f.mention > 0),
  def: (f) => log(f.def),
  defines: (f) => flag(f.def > 0),
  usage: (f) => log(f.usage),
  graph: (f) => log(f.graph),
  docs: (f) => flag(f.docs),
  test: (f) => flag(f.test),
  nonCode: (f) => flag(f.nonCode),
  stub: (f) => flag(f.stub),
};
const TERMS = Object.keys(LISTWISE_TERMS);
export type ListwiseWeights = Record<string, number>;

/** The L2 penalty per weight. */
export const LAMBDA = 0.001;

const termsOf = (f: RescoreFeatures): Float64Array => Float64Array.from(TERMS, (k) => LISTWISE_TERMS[k]?.(f) ?? 0);

/** A file's score under listwise weights `w`. */
export function scoreListwise(f: RescoreFeatures, w: ListwiseWeights): number {
  return termsOf(f).reduce((a, v, j) => a + v * (w[TERMS[j] ?? ""] ?? 0), 0);
}

interface Matrix {
  x: Float64Array[];
  gold: number;
}

const matrices = new WeakMap<ListwiseInstance, Matrix | null>();

/** The instance's term vectors and the index of its (first) gold row; null without one. */
function matrixOf(inst: ListwiseInstance): Matrix | null {
  let m = matrices.get(inst);
  if (m !== undefined) return m;
  const gold = inst.rows.findIndex((r) => inst.gold.includes(r.path));
  m = gold < 0 ? null : { x: inst.rows.map(termsOf), gold };
  matrices.set(inst, m);
  return m;
}

/** Loss, gradient and Hessian of the mean softmax loss plus the penalty at weights `w`. */
function lossAt(data: readonly Matrix[], w: Float64Array, lambda: number) {
  const t = w.length;
  const grad = new Float64Array(t);
  const hess = Array.from({ length: t }, () => new Float64Array(t));
  let loss = 0;
  for (const { x, gold } of data) {
    const s = x.map((v) => v.reduce((a, xi, j) => a + xi * (w[j] ?? 0), 0));
    const max = Math.max(...s);
    const e = s.map((v) => Math.exp(v - max));
    const z = e.reduce((a, b) => a + b, 0);
    const p = e.map((v) => v / z);
    loss += -((s[gold] ?? 0) - max - Math.log(z));
    const mean = new Float64Array(t);
    x.forEach((v, r) => v.forEach((xi, j) => (mean[j] = (mean[j] ?? 0) + (p[r] ?? 0) * xi)));
    const g = x[gold] as Float64Array;
    for (let j = 0; j < t; j++) grad[j] = (grad[j] ?? 0) + (mean[j] ?? 0) - (g[j] ?? 0);
    // Hessian: the candidates' covariance of terms under p.
    x.forEach((v, r) => {
      const pr = p[r] ?? 0;
      if (pr < 1e-12) return;
      for (let a = 0; a < t; a++) {
        const da = pr * ((v[a] ?? 0) - (mean[a] ?? 0));
        if (da === 0) continue;
        const row = hess[a] as Float64Array;
        for (let b = 0; b < t; b++) row[b] = (row[b] ?? 0) + da * ((v[b] ?? 0) - (mean[b] ?? 0));
      }
    });
  }
  const n = data.length || 1;
  loss /= n;
  for (let j = 0; j < t; j++) {
    loss += lambda * (w[j] ?? 0) ** 2;
    grad[j] = (grad[j] ?? 0) / n + 2 * lambda * (w[j] ?? 0);
    const row = hess[j] as Float64Array;
    for (let b = 0; b < t; b++) row[b] = (row[b] ?? 0) / n + (b === j ? 2 * lambda : 0);
  }
  return { loss, grad, hess };
}

/** Solves `a x = b` for a symmetric positive definite `a` (Gaussian elimination, partial pivoting). */
function solve(a: Float64Array[], b: Float64Array): Float64Array {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i] ?? 0]);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]?.[c] ?? 0) > Math.abs(m[piv]?.[c] ?? 0)) piv = r;
    [m[c], m[piv]] = [m[piv] as number[], m[c] as number[]];
    const top = m[c] as number[];
    const d = top[c] ?? 0;
    if (Math.abs(d) < 1e-300) continue;
    for (let r = c + 1; r < n; r++) {
      const row = m[r] as number[];
      const f = (row[c] ?? 0) / d;
      if (f !== 0) for (let k = c; k <= n; k++) row[k] = (row[k] ?? 0) - f * (top[k] ?? 0);
    }
  }
  const x = new Float64Array(n);
  for (let r = n - 1; r >= 0; r--) {
    const row = m[r] as number[];
    let s = row[n] ?? 0;
    for (let k = r + 1; k < n; k++) s -= (row[k] ?? 0) * (x[k] ?? 0);
    x[r] = Math.abs(row[r] ?? 0) < 1e-300 ? 0 : s / (row[r] ?? 1);
  }
  return x;
}

/** Weights minimizing the penalized listwise loss on `data` (instances without a gold row are left out). */
export function fitListwise(data: readonly ListwiseInstance[], lambda = LAMBDA): ListwiseWeights {
  const mats = data.map(matrixOf).filter((m): m is Matrix => m !== null);
  let w = new Float64Array(TERMS.length);
  let cur = lossAt(mats, w, lambda);
  for (let iter = 0; iter < 50; iter++) {
    const step = solve(cur.hess, cur.grad);
    let t = 1;
    let next = cur;
    let nw = w;
    // Backtracking: a Newton step on a convex loss is nearly always accepted whole.
    for (; t > 1e-4; t /= 2) {
      nw = w.map((v, j) => v - t * (step[j] ?? 0));
      next = lossAt(mats, nw, lambda);
      if (next.loss <= cur.loss) break;
    }
    const gain = cur.loss - next.loss;
    if (next.loss > cur.loss) break;
    w = nw;
    cur = next;
    if (gain < 1e-10) break;
  }
  return Object.fromEntries(TERMS.map((k, j) => [k, Math.round((w[j] ?? 0) * 1000) / 1000]));
}

/** 1-based rank of the last gold file among the rows under `w` (ties: row order); null without gold. */
export function listwiseRank(inst: ListwiseInstance, w: ListwiseWeights): number | null {
  return rankOfLastGold(inst.rows, inst.gold, (i) => scoreListwise(inst.rows[i] as RescoreFeatures, w));
}

/** Held-out ranks under k-fold cross-validation, on the same folds as fit.ts's `crossValidate`. */
export function crossValidateListwise(
  data: readonly ListwiseInstance[],
  opts: { k: number; seed: number; byRepo: boolean },
): Map<string, number | null> {
  const foldOf = assignFolds(data, opts);
  const ranks = new Map<string, number | null>();
  for (let f = 0; f < opts.k; f++) {
    const w = fitListwise(data.filter((d) => foldOf.get(d.id) !== f));
    for (const d of data) if (foldOf.get(d.id) === f) ranks.set(d.id, listwiseRank(d, w));
  }
  return ranks;
}
