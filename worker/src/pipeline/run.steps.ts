import type { Issue, RunStep, SolveRun, FileChange, StepDetail } from "@fixloop/db";
import type { StepId, TestsEvent } from "../contract";
import type { WorkerContext } from "../context";
import { githubForUser } from "../contract";
import { findModel, modelsConfigFromEnv, DEFAULT_MODEL_ID } from "../models";
import { fetchRepoSnapshot, readBlob } from "./repo-tree";
import type { StepResult } from "./run.store";
import { loadBudget } from "./run.budget";
import { promptRecord } from "./prompt.record";
import type { PromptFile } from "./prompt";
import type { PromptRecord } from "../contract";
import { analyzing, type AnalyzingOutput } from "./steps/analyzing";
import { context, type ContextOutput } from "./steps/context";
import { dependencies, type DependenciesOutput } from "./steps/dependencies";
import { rerankWithModel } from "./steps/rerank-model";
import { fileView, FULL_FILE_CHARS } from "./file-view";
import { generating, GenerationError, type GeneratingOutput, type ModelRequest } from "./steps/generating";
import { validateWithTests } from "./run.tests";
import { embeddingRerankFor } from "./embeddings.rerank";

export interface RunInput {
  run: SolveRun;
  issue: Issue;
  outputs: Partial<Record<StepId, unknown>>;
  signal: AbortSignal;
  /** Solution being refined (refine runs): its current changes are the baseline. */
  baseline?: FileChange[];
  onModelRetry?: (info: { attempt: number; reason: string; waitMs: number }) => void;
  /** Appends a live `tests` event to the run's stream. */
  onTestsEvent?: (e: TestsEvent) => Promise<unknown>;
  /** Announces what the running step has done so far (shown live in its expanded row). */
  report?: (detail: StepDetail) => Promise<void>;
  /** Receives what the model is about to see, before the cap check and the request. */
  onPrompt?: (record: PromptRecord) => Promise<void>;
  /** Records each model request as its answer arrives. */
  onModelRequest?: (r: ModelRequest) => Promise<void>;
}

/** Runs one step with what the earlier steps stored; the step functions themselves know nothing of jobs. */
export async function executeStep(step: StepId, i: RunInput, ctx: WorkerContext): Promise<StepResult> {
  const prefix = ctx.queues.prefix;
  const [owner = "", repo = ""] = i.issue.repo_full_name.split("/");
  const gh = async () => (await githubForUser(ctx, i.run.user_id)).client;
  switch (step) {
    case "analyzing": {
      const r = await analyzing({ title: i.issue.title, body: i.issue.body, labels: i.issue.labels });
      return { output: r.output, detail: r.detail };
    }
    case "context": {
      await i.report?.({ files: [], info: [`Reading the file tree of ${i.issue.repo_full_name}`], warnings: [] });
      const snapshot = await fetchRepoSnapshot(await gh(), ctx.redis, prefix, owner, repo, i.signal);
      const r = context(snapshot);
      return { output: r.output, detail: r.detail };
    }
    case "dependencies": {
      const a = i.outputs.analyzing as AnalyzingOutput;
      const c = i.outputs.context as ContextOutput;
      const client = await gh();
      const models = modelsConfigFromEnv(ctx.env);
      const model = findModel(models, i.run.model_id || DEFAULT_MODEL_ID);
      const budget = model && ctx.env.MODEL_RERANK === "on" ? await loadBudget(ctx.db, ctx.env, i.run) : undefined;
      const read = (sha: string) => readBlob(client, ctx.redis, prefix, c.owner, c.repo, sha, i.signal);
      const rerank = embeddingRerankFor(ctx, c, a, read, i.signal);
      const r = await dependencies({
        context: c,
        title: a.title,
        body: a.body,
        readBlob: read,
        maxFiles: ctx.env.LOCALIZE_MAX_FILES,
        ...(rerank ? { rerank } : {}),
        ...(model && budget
          ? {
              modelRerank: (candidates) =>
                rerankWithModel({
                  models,
                  model,
                  budget,
                  signal: i.signal,
                  title: a.title,
                  body: a.body,
                  candidates,
                  ...(i.onModelRequest ? { onRequest: i.onModelRequest } : {}),
                }),
            }
          : {}),
      });
      return {
        output: r.output,
        detail: r.detail,
        ...(r.cost ? { tokensIn: r.cost.tokensIn, tokensOut: r.cost.tokensOut, costUsd: r.cost.usd } : {}),
      };
    }
    case "generating": {
      const r = await generateFor(i, ctx);
      return {
        output: r.output,
        detail: r.detail,
        tokensIn: r.output.tokensIn,
        tokensOut: r.output.tokensOut,
        costUsd: r.output.costUsd,
      };
    }
    case "validating":
      return validateWithTests(i, ctx, (extra) => generateFor(i, ctx, extra));
  }
}

/**
 * The model call with what the earlier steps stored. `extra` (the tests' repair round) works
 * like a refinement: its feedback is appended and its files are the baseline to edit.
 */
async function generateFor(
  i: RunInput,
  ctx: WorkerContext,
  extra?: { feedback: string; baseline: FileChange[] },
): Promise<{ output: GeneratingOutput; detail: StepDetail }> {
  const a = i.outputs.analyzing as AnalyzingOutput;
  const c = i.outputs.context as ContextOutput;
  const d = i.outputs.dependencies as DependenciesOutput;
  const models = modelsConfigFromEnv(ctx.env);
  const model = findModel(models, i.run.model_id || DEFAULT_MODEL_ID);
  if (!model) throw new GenerationError("model.unknown", `Model ${i.run.model_id} is not configured on this server`);
  const input = i.run.input as { feedback?: unknown; manualEdits?: unknown };
  const feedback = Array.isArray(input.feedback)
    ? input.feedback.filter((f): f is string => typeof f === "string")
    : [];
  if (extra) feedback.push(extra.feedback);
  const manualEdits = (Array.isArray(input.manualEdits) ? input.manualEdits : [])
    .map((m) => m as { filename?: unknown; reason?: unknown })
    .filter((m): m is { filename: string; reason?: string } => typeof m.filename === "string");
  const baseline = extra?.baseline ?? i.baseline;
  const current = new Map((baseline ?? []).map((f) => [f.filename, f.content]));
  const files: PromptFile[] = [];
  for (const f of d.files) {
    const content = current.get(f.path) ?? f.content;
    const view = await fileView(f.path, content, FULL_FILE_CHARS, f.symbols ?? []);
    files.push({ path: f.path, content, reasons: f.reasons, ...(view.partial ? { skeleton: view.text } : {}) });
  }
  for (const b of baseline ?? []) {
    if (!files.some((f) => f.path === b.filename) && b.action !== "delete")
      files.push({ path: b.filename, content: b.content, reasons: ["changed by the current solution"] });
  }
  const prompt = {
    repository: `${c.owner}/${c.repo}`,
    issueNumber: i.issue.issue_number,
    issueTitle: a.title,
    issueBody: a.body,
    labels: a.labels,
    classification: a.classification,
    files,
    repoMap: d.repoMap,
    feedback,
    manualEdits,
  };
  const raw = { title: i.issue.title, body: i.issue.body ?? "", labels: i.issue.labels, feedback };
  return generating({
    models,
    model,
    baseline,
    signal: i.signal,
    onRetry: i.onModelRetry,
    report: i.report,
    budget: await loadBudget(ctx.db, ctx.env, i.run),
    onPrompt: async (p) =>
      i.onPrompt?.(promptRecord({ model, system: p.system, user: p.user, input: prompt, raw, estimate: p.estimate })),
    onRequest: i.onModelRequest,
    ...(extra ? { purpose: "tests repair" } : {}),
    prompt,
  });
}

/** A refine run reuses the first three steps of the solution's original run. */
export const REUSABLE_ON_REFINE: readonly StepId[] = ["analyzing", "context", "dependencies"];
export type StoredSteps = Map<StepId, RunStep>;
