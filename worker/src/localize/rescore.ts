import type { Doc, Evidence } from "./rank";
import { isDocsPath, RESCORE, WEIGHTS } from "./rank";

/** The second stage's weights (see RESCORE); fitted by infra/src/bench/localize/fit.ts. */
export type RescoreWeights = typeof RESCORE;

/**
 * One file's second-stage signals before weighting: the final score is their weighted sum
 * (evidence capped) times the file's discounts. The bench dumps them to fit and cross-validate
 * the weights without running the localizer again.
 */
export interface RescoreFeatures {
  path: string;
  lex: number;
  pathMatch: number;
  mention: number;
  def: number;
  usage: number;
  graph: number;
  title: number;
  chunk: number;
  chunkTitle: number;
  docs: boolean;
  test: boolean;
  nonCode: boolean;
  stub: boolean;
  /** Whether it was among the first stage's best files that get the function-level signals. */
  rescored?: boolean;
}

/** The final score `combine` gives a file with these signals under weights `w`. */
export function scoreFeatures(f: RescoreFeatures, w: RescoreWeights = RESCORE): number {
  let s =
    w.lex * f.lex +
    w.path * f.pathMatch +
    w.title * f.title +
    w.chunk * f.chunk +
    w.chunkTitle * f.chunkTitle +
    (f.docs ? w.docs : 0) +
    w.mention * Math.min(w.mentionCap, f.mention) +
    w.def * Math.min(w.defCap, f.def) +
    w.usage * Math.min(w.usageCap, f.usage) +
    w.graph * Math.min(1, f.graph);
  if (f.test) s *= w.test;
  if (f.nonCode) s *= WEIGHTS.nonCode;
  if (f.stub) s *= WEIGHTS.stub;
  return s;
}

export interface FeatureSources {
  docs: readonly Doc[];
  lex: Float64Array;
  path: Float64Array;
  title: Float64Array;
  chunk: Float64Array;
  chunkTitle: Float64Array;
  mentions: Evidence;
  defs: Evidence;
  usage: Evidence;
  near: Evidence;
}

/** The signals of the files at `indices`, in that order. */
export function rescoreFeatures(
  src: FeatureSources,
  indices: Iterable<number>,
  rescored: ReadonlySet<number>,
): RescoreFeatures[] {
  const ev = (e: Evidence, p: string) => e.get(p)?.score ?? 0;
  const out: RescoreFeatures[] = [];
  for (const i of indices) {
    const d = src.docs[i];
    if (!d) continue;
    out.push({
      path: d.path,
      lex: src.lex[i] ?? 0,
      pathMatch: src.path[i] ?? 0,
      mention: ev(src.mentions, d.path),
      def: ev(src.defs, d.path),
      usage: ev(src.usage, d.path),
      graph: ev(src.near, d.path),
      title: src.title[i] ?? 0,
      chunk: src.chunk[i] ?? 0,
      chunkTitle: src.chunkTitle[i] ?? 0,
      docs: isDocsPath(d.path),
      test: d.test,
      nonCode: !d.code,
      stub: d.path.endsWith(".pyi") || d.path.endsWith(".d.ts"),
      rescored: rescored.has(i),
    });
  }
  return out;
}
