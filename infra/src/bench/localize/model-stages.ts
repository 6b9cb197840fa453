/**
 * Step 3's optional model stages (embedding rerank, model rerank) measured on the cross-validated
 * ranking: each held-out instance is ranked with the weights fitted without its fold (fit.ts), the
 * stage reorders the best files of that ranking exactly as step 3 reorders the localizer's, and
 * recall is compared with the same ranking without the stage, on the same instances.
 *
 * Why after the cross-validation and not inside the eval child: the stage's input is the ranking
 * it reorders (its scores, its order), and the held-out ranking exists only once every instance's
 * signals are in. The few files a stage reads come from the repository's mirror at the instance's
 * commit (stage-tree.ts), so the eval's trees need not be kept. The model rerank is shown each
 * file's best symbols where the eval dumped them (the localizer's top 10); a file below that is
 * shown without a symbol kept whole, where step 3 would keep its best one.
 */
import type { RescoreFeatures, RescoreWeights } from "@fixloop/worker/localize";
import { scoreFeatures } from "@fixloop/worker/localize";
import {
  embeddingRerank,
  type Hold,
  openAiEmbedder,
  RERANK_CANDIDATES,
  type RequestMeter,
  rerankWithModel,
} from "@fixloop/worker";
import { type FeatureInstance, type Recall, recallOf } from "./fit";
import type { ModelStage } from "./model-stages.config";
import { goldRankIn } from "./gold-rank";
import type { StageTree } from "./stage-tree";

/** What a stage reads of one instance: its issue and its repository at the instance's commit. */
export interface StageSource {
  title: string;
  body: string;
  tree: StageTree;
}

/** What one issue's stage cost, as the product's ledger records it (each HTTP request reserved, then settled). */
export interface StageCost {
  requests: number;
  tokensIn: number;
  tokensOut: number;
  usd: number;
  seconds: number;
}

export interface StageResult {
  stage: ModelStage;
  issues: number;
  /** Issues whose stage failed (HTTP error, timeout, no usable answer): they keep the no-model order, as step 3 does. */
  failed: { id: string; why: string }[];
  without: Recall;
  with: Recall;
  /** Issues whose gold files rank better (up) or worse (down) with the stage: the paired view of the change. */
  moved: { up: number; down: number };
  /** One entry per issue the stage was asked about, failed ones included (a failed request may still cost). */
  costs: StageCost[];
}

/** Top symbols per file the model rerank is shown (step 3 shows its files' best five). */
const SYMBOLS_SHOWN = 5;

/** The instance's candidates ranked by `w`, best first: the order fit.ts's goldRank measures. */
export function rankedRows(inst: FeatureInstance, w: RescoreWeights): { path: string; score: number }[] {
  const scored = inst.rows.map((r: RescoreFeatures, i) => ({ path: r.path, score: scoreFeatures(r, w), i }));
  scored.sort((a, b) => b.score - a.score || a.i - b.i);
  return scored.map(({ path, score }) => ({ path, score }));
}

/** A ledger of one issue's requests: counts what each settled request cost. */
class Tally implements RequestMeter {
  readonly cost: StageCost = { requests: 0, tokensIn: 0, tokensOut: 0, usd: 0, seconds: 0 };
  reserve(): Promise<Hold> {
    return Promise.resolve({
      settle: (s) => {
        this.cost.requests += 1;
        this.cost.tokensIn += s.tokensIn;
        this.cost.tokensOut += s.tokensOut;
        this.cost.usd += s.usd;
        return Promise.resolve();
      },
      release: () => Promise.resolve(),
    });
  }
}

type Pool = { path: string; score: number; content: string }[];

/** The stage's order of `pool` (every path of it), or why it has none. */
async function runStage(
  stage: ModelStage,
  pool: Pool,
  src: StageSource,
  symbols: (path: string) => string[],
  meter: Tally,
): Promise<{ order: string[] } | { why: string }> {
  if (stage.kind === "embedding") {
    const content = new Map(pool.map((f) => [f.path, f.content]));
    const { files } = await embeddingRerank({
      candidates: pool.map((f) => ({
        path: f.path,
        // Rounded as the localizer rounds the scores step 3 hands to the rerank.
        score: Math.round(f.score * 1000) / 1000,
        reasons: [],
        blobSha: src.tree.blobSha(f.path) ?? f.path,
        read: () => Promise.resolve(content.get(f.path) ?? ""),
      })),
      issueTitle: src.title,
      issueBody: src.body,
      allPaths: src.tree.paths,
      embedder: openAiEmbedder(stage.settings, undefined, meter),
      // No cached vectors: each issue pays for every chunk (a deployment's cache makes repeat files free).
      store: { find: () => Promise.resolve(new Map()), save: () => Promise.resolve() },
    });
    return { order: files.map((f) => f.path) };
  }
  const r = await rerankWithModel({
    models: stage.models,
    model: stage.model,
    meter,
    signal: new AbortController().signal,
    title: src.title,
    body: src.body,
    candidates: pool.map((f) => ({ path: f.path, content: f.content, symbols: symbols(f.path) })),
  });
  return r.detail.status === "failed" ? { why: r.detail.note } : { order: r.order };
}

/**
 * Applies `stage` to each instance's held-out ranking (weights from `weightsOf`) and measures recall
 * with and without it. A stage failing on one issue is counted and that issue keeps its order.
 */
export async function measureStage(
  stage: ModelStage,
  data: readonly FeatureInstance[],
  weightsOf: ReadonlyMap<string, RescoreWeights>,
  sourceOf: (id: string) => Promise<StageSource>,
  log: (line: string) => void = () => {},
): Promise<StageResult> {
  const size = stage.kind === "embedding" ? stage.pool : RERANK_CANDIDATES;
  const before: (number | null)[] = [];
  const after: (number | null)[] = [];
  const failed: StageResult["failed"] = [];
  const costs: StageCost[] = [];
  const moved = { up: 0, down: 0 };
  const worse = (a: number | null, b: number | null) => (a ?? Infinity) > (b ?? Infinity);
  for (const inst of data) {
    const w = weightsOf.get(inst.id);
    if (!w) continue;
    const order = rankedRows(inst, w);
    const paths = order.map((f) => f.path);
    const rank = goldRankIn(paths, inst.gold);
    let next = paths;
    const meter = new Tally();
    const started = performance.now();
    let reading = 0;
    try {
      const src = await sourceOf(inst.id);
      const pool = await Promise.all(
        order.slice(0, size).map(async (f) => ({ ...f, content: await src.tree.read(f.path) })),
      );
      const names = new Map(inst.symbols?.files.map((f) => [f.path, (f.symbols ?? []).map((s) => s.name)]));
      const symbols = (p: string) => (names.get(p) ?? []).slice(0, SYMBOLS_SHOWN);
      reading = performance.now() - started;
      const r = await runStage(stage, pool, src, symbols, meter);
      meter.cost.seconds = (performance.now() - started - reading) / 1000;
      if ("why" in r) failed.push({ id: inst.id, why: r.why });
      else next = [...r.order, ...paths.filter((p) => !r.order.includes(p))];
    } catch (err) {
      meter.cost.seconds = (performance.now() - started - reading) / 1000;
      failed.push({ id: inst.id, why: (err instanceof Error ? err.message : String(err)).replace(/\s+/g, " ") });
    }
    const now = goldRankIn(next, inst.gold);
    before.push(rank);
    after.push(now);
    if (worse(rank, now)) moved.up += 1;
    if (worse(now, rank)) moved.down += 1;
    costs.push(meter.cost);
    log(
      `${inst.id}\t${stage.kind} rerank: gold rank ${rank ?? "-"} -> ${now ?? "-"}\t${meter.cost.seconds.toFixed(2)}s`,
    );
  }
  return { stage, issues: before.length, failed, without: recallOf(before), with: recallOf(after), moved, costs };
}
