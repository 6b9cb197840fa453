import { type RescoreFeatures, type RescoreWeights, scoreFeatures } from "@fixloop/worker/localize";
import type { CrossValidation, FeatureInstance } from "./fit";

/** Each signal's weighted share of a file's score (before the test/non-code discounts). */
function parts(f: RescoreFeatures, w: RescoreWeights): Record<string, number> {
  return {
    lexical: w.lex * f.lex,
    path: w.path * f.pathMatch,
    title: w.title * f.title,
    "best function": w.chunk * f.chunk + w.chunkTitle * f.chunkTitle,
    mention: w.mention * Math.min(w.mentionCap, f.mention),
    definition: w.def * Math.min(w.defCap, f.def),
    usage: w.usage * Math.min(w.usageCap, f.usage),
    graph: w.graph * Math.min(1, f.graph),
  };
}

/** Why the gold file lost: not a candidate at all, or the signals where the winner beat it most. */
export function missCause(inst: FeatureInstance, w: RescoreWeights): string {
  const gold = inst.rows.find((r) => inst.gold.includes(r.path));
  if (!gold) return "gold file not in the dumped signals";
  if (gold.rescored === false)
    return "gold file below the first stage's best 100 (no function-level signals): no mention, definition or lexical lead";
  const top = [...inst.rows].sort((a, b) => scoreFeatures(b, w) - scoreFeatures(a, w))[0];
  if (!top || top.path === gold.path) return "ranked first";
  const g = parts(gold, w);
  const t = parts(top, w);
  const gaps = Object.keys(t)
    .map((k) => ({ k, d: (t[k] ?? 0) - (g[k] ?? 0) }))
    .filter((x) => x.d > 0.05)
    .sort((a, b) => b.d - a.d)
    .slice(0, 3)
    .map((x) => `${x.k} +${x.d.toFixed(2)}`);
  const flags = [gold.test && "gold is a test file", gold.nonCode && "gold is not code"].filter(Boolean);
  return `outranked by ${top.path} (${[...gaps, ...flags].join(", ") || "small margins"})`;
}

/** The `n` worst held-out ranks (no rank first), with their cause. */
export function largestMisses(data: readonly FeatureInstance[], cv: CrossValidation, n = 5): string[] {
  const rank = (d: FeatureInstance) => cv.ranks.get(d.id) ?? Number.POSITIVE_INFINITY;
  return [...data]
    .filter((d) => rank(d) > 1)
    .sort((a, b) => rank(b) - rank(a) || a.id.localeCompare(b.id))
    .slice(0, n)
    .map((d) => {
      const w = cv.weightsOf.get(d.id);
      const r = cv.ranks.get(d.id);
      return `${d.id}  gold ${d.gold.join(",")}  CV rank ${r ?? "none"}  ${w ? missCause(d, w) : ""}`;
    });
}
