import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RescoreFeatures } from "@fixloop/worker/localize";
import { type ModelSandbox, startModelSandbox } from "@fixloop/testkit/sandbox";
import { type FeatureInstance, goldRank, NEUTRAL } from "./fit";
import { benchModelStages } from "./model-stages.bench";
import { configuredStages } from "./model-stages.config";
import { goldRankIn } from "./gold-rank";
import { measureStage, rankedRows, type StageSource } from "./model-stages";
import { costPerIssue, stageFigures } from "./model-stages.report";
import { mirrorTree } from "./stage-tree";
import { featureRow } from "./rows.testkit";

const FILES: Record<string, string> = {
  "src/layout.py": "def layout(box):\n    return box.pad(4)\n",
  "src/widget.py": "class Widget:\n    def colour(self):\n        return self.resize_colour\n",
  "src/util.py": "def noop():\n    pass\n",
};
const TITLE = "Widget colour is lost on resize";
const BODY = "After a resize the widget colour resets to the default.";

/** One file's signals: only a lexical score, so NEUTRAL weights rank the files by it. */
const row = (path: string, lex: number): RescoreFeatures => featureRow(path, { lex });
/** The gold file second in the held-out ranking, under the layout file. */
const instance = (id: string): FeatureInstance => ({
  id,
  repo: "acme/widgets",
  gold: ["src/widget.py"],
  rows: [row("src/util.py", 0.1), row("src/layout.py", 1), row("src/widget.py", 0.9)],
});
const weightsOf = (ids: string[]) => new Map(ids.map((id) => [id, NEUTRAL]));
const source = (): Promise<StageSource> =>
  Promise.resolve({
    title: TITLE,
    body: BODY,
    tree: {
      paths: Object.keys(FILES),
      blobSha: (p) => `sha-${p}`,
      read: (p) => Promise.resolve(FILES[p] ?? ""),
    },
  });

let models: ModelSandbox;
beforeAll(async () => {
  models = await startModelSandbox({
    fixes: [
      {
        repo: "acme/widgets",
        issueNumber: 1,
        title: TITLE,
        analysis: "The colour is not kept.",
        proposedSolution: "Keep it.",
        files: [{ filename: "src/widget.py", action: "modify", edits: [] }],
      },
    ],
  });
});
afterAll(() => models.stop());

describe("model stages on the cross-validated ranking", () => {
  it("ranks as the fit's held-out rank does", () => {
    const inst = instance("a");
    expect(
      goldRankIn(
        rankedRows(inst, NEUTRAL).map((f) => f.path),
        inst.gold,
      ),
    ).toBe(goldRank(inst, NEUTRAL));
    expect(goldRank(inst, NEUTRAL)).toBe(2);
  });

  it("offline: one line says the stages were skipped, and no figure is made", async () => {
    const offline = configuredStages({});
    expect(offline.stages).toEqual([]);
    expect(offline.notes).toHaveLength(1);
    expect(offline.notes[0]).toMatch(/^localize: model stages skipped \(.*EMBEDDINGS_BASE_URL.*MODEL_RERANK unset\)/);
    const figures = await benchModelStages({
      stages: offline.stages,
      data: [instance("a")],
      cv: undefined,
      instancesFile: "/nonexistent",
      mirrors: "/nonexistent",
      appendix: [],
      log: () => {},
    });
    expect(figures).toEqual([]);
  });

  it("an unpriced model gets no USD figure; a configured stage without a CV ranking says it was not measured", async () => {
    const { stages } = configuredStages({
      MODEL_RERANK: "on",
      OPENAI_COMPATIBLE_BASE_URL: "http://user:secret@models.local:8000/v1/",
      OPENAI_COMPATIBLE_MODELS: "local-chat",
      BENCH_RERANK_MODEL: "local-chat",
      EMBEDDINGS_BASE_URL: "http://models.local:8000/v1",
      EMBEDDINGS_MODEL: "local-embed",
    });
    expect(stages.map((s) => [s.label, s.priced])).toEqual([
      ["embedding rerank (local-embed at http://models.local:8000/v1, top 30)", false],
      ["model rerank (local-chat at http://models.local:8000/v1)", false],
    ]);
    const appendix: string[] = [];
    const input = { data: [], cv: undefined, instancesFile: "", mirrors: "", appendix, log: () => {} };
    expect(await benchModelStages({ ...input, stages })).toEqual([]);
    expect(appendix).toEqual([
      expect.stringMatching(/configured but not measured: there is no cross-validated ranking/),
    ]);
    const none = { requests: 0, tokensIn: 0, tokensOut: 0, usd: 0, seconds: 0 };
    const recall = { "@1": 0, "@3": 0, "@5": 0, "@10": 0, n: 0 };
    const r = {
      stage: stages[1]!,
      issues: 0,
      failed: [],
      without: recall,
      with: recall,
      moved: { up: 0, down: 0 },
      costs: [none],
    };
    expect(stageFigures(r, "CV").some((f) => f.unit === "USD")).toBe(false);
  });

  it("embedding rerank: recall moves by the stand-in's answers, costs are summed per issue, a failing request is counted", async () => {
    models.control.reset();
    const { stages, notes } = configuredStages({
      ...models.embeddingsEnv,
      OPENAI_COMPATIBLE_PRICES: `${models.embeddingsEnv.EMBEDDINGS_MODEL}=0.02/0`,
    });
    const [stage] = stages;
    if (stage?.kind !== "embedding") throw new Error("no embedding stage");
    expect(stage.label).toBe(`embedding rerank (text-embedding-3-small at ${models.url}/openai/v1, top 30)`);
    expect(notes).toEqual(["localize: skipped model rerank: MODEL_RERANK unset"]);
    // The first issue's first request fails: that issue keeps its order; the second is reranked.
    models.control.failEmbeddingsNext({ status: 500 });
    const r = await measureStage(stage, [instance("fails"), instance("ok")], weightsOf(["fails", "ok"]), source);
    expect(r.failed.map((f) => f.id)).toEqual(["fails"]);
    expect(r.without["@1"]).toBe(0);
    expect(r.with["@1"]).toBe(0.5);
    expect(r.with["@3"]).toBe(1);
    expect(r.moved).toEqual({ up: 1, down: 0 });
    const sent = models.control.embeddingRequests;
    expect(r.costs.map((c) => c.requests)).toEqual([1, sent.length - 1]);
    const tokens = sent
      .slice(1)
      .reduce((n, q) => n + q.inputs.reduce((m, t) => m + Math.max(1, Math.ceil(t.length / 4)), 0), 0);
    expect(r.costs.map((c) => c.tokensIn)).toEqual([0, tokens]);
    expect(r.costs[1]?.usd).toBeCloseTo((tokens * 0.02) / 1e6, 10);
    expect(costPerIssue(r.costs).requests).toBe(sent.length / 2);
    const figures = stageFigures(r, "5-fold CV (seed 30)");
    expect(figures.find((f) => f.name.startsWith("recall@1,"))).toMatchObject({ value: 0.5, baseline: 0 });
    expect(figures.find((f) => f.name.startsWith("issues where the stage failed"))?.value).toBe(1);
    expect(figures.find((f) => f.unit === "USD")?.value).toBeCloseTo((tokens * 0.02) / 1e3 / 2, 10);
  });

  it("model rerank: the model's pick goes first, its tokens and price are the product's, a bad answer is counted", async () => {
    models.control.reset();
    models.control.usage({ input: 1200, output: 40 });
    const { stages } = configuredStages({ ...models.env, MODEL_RERANK: "on", BENCH_RERANK_MODEL: "gpt-4.1-mini" });
    const [stage] = stages;
    if (stage?.kind !== "model") throw new Error("no model stage");
    expect(stage.label).toBe(`model rerank (gpt-4.1-mini at ${models.url}/openai/v1)`);
    models.control.malformedNext(2); // the answer and its repair round: the first issue's rerank fails
    const r = await measureStage(stage, [instance("bad"), instance("ok")], weightsOf(["bad", "ok"]), source);
    expect(r.failed.map((f) => f.id)).toEqual(["bad"]);
    expect(r.failed[0]?.why).toMatch(/Model rerank failed/);
    expect([r.without["@1"], r.with["@1"]]).toEqual([0, 0.5]);
    expect(r.costs[1]).toMatchObject({ requests: 1, tokensIn: 1200, tokensOut: 40 });
    expect(r.costs[1]?.usd).toBeCloseTo((1200 * 0.4 + 40 * 1.6) / 1e6, 10);
    expect(r.costs[0]?.requests).toBe(2);
    expect(r.moved).toEqual({ up: 1, down: 0 });
  });

  it("reads a stage's files from a mirror at the instance's commit", async () => {
    const dir = mkdtempSync(join(tmpdir(), "stage-tree-"));
    try {
      const git = (...args: string[]) =>
        execFileSync("git", ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", ...args])
          .toString()
          .trim();
      git("init", "-q");
      mkdirSync(join(dir, "src"));
      for (const [p, text] of Object.entries(FILES)) writeFileSync(join(dir, p), text);
      git("add", ".");
      git("commit", "-qm", "base");
      const commit = git("rev-parse", "HEAD");
      writeFileSync(join(dir, "src/widget.py"), "changed later\n");
      git("commit", "-qam", "later");
      const tree = await mirrorTree(join(dir, ".git"), commit);
      expect(tree.paths.sort()).toEqual(Object.keys(FILES).sort());
      expect(await tree.read("src/widget.py")).toBe(FILES["src/widget.py"]);
      expect(tree.blobSha("src/widget.py")).toMatch(/^[0-9a-f]{40}$/);
      await expect(tree.read("src/absent.py")).rejects.toThrow(/not in/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
