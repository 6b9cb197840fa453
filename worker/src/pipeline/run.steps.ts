import type { z } from "zod";
import type { issues, SolveRun, steps } from "@fixloop/db";
import {
  type FileChange,
  type StepDetail,
  refineInputOf,
  STEPS,
  StepOutputs,
  type PromptRecord,
  type StepId,
  type StepInput,
  type StepOutput,
  type TestsEvent,
} from "@fixloop/contract";
import { githubForUser } from "@fixloop/runtime";
import type { WorkerContext } from "../context";
import { findModel, modelsConfigFromEnv, DEFAULT_MODEL_ID } from "../models";
import { fetchRepoSnapshot, readBlob } from "./repo-tree";
import { promptRecord } from "./prompt.record";
import type { PromptFile } from "./prompt";
import { analyzing } from "./steps/analyzing";
import { context } from "./steps/context";
import { dependencies } from "./steps/dependencies";
import { rerankWithModel } from "./steps/rerank-model";
import { fileView, FULL_FILE_CHARS } from "./file-view";
import { generating, GenerationError } from "./steps/generating";
import type { RequestMeter } from "../models/meter";
import { validateWithTests } from "./run.tests";
import { embeddingRerankFor } from "./embeddings.rerank";

/** What a step gets besides the earlier steps' outputs: the run, its issue, and the processor's hooks. */
export interface StepEnv {
  run: SolveRun;
  issue: issues.IssueRecord;
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
  /** The ledger: every model request of the step is reserved against the caps before it is sent, then settled. */
  meter?: RequestMeter;
}

/** A finished step: its typed output, what it shows, and what its model requests cost. */
export interface StepOutcome<O extends object> extends steps.StepResult {
  output: O;
}

/** One solve step as data: the processor runs the list in order and knows no step by name. */
export interface PipelineStep<K extends StepId> {
  id: K;
  /** Picks what the step reads from the outputs so far; null when one of them is missing. */
  input(done: Partial<StepOutputs>): StepInput<K> | null;
  /** Decodes the step's stored output when a run resumes (or a refinement reuses it). */
  output: z.ZodType<StepOutput<K>>;
  run(input: StepInput<K>, env: StepEnv, ctx: WorkerContext): Promise<StepOutcome<StepOutput<K>>>;
}
export type AnyPipelineStep = { [K in StepId]: PipelineStep<K> }[StepId];

const none = () => ({});
const owner = (i: issues.IssueRecord) => i.repo_full_name.split("/");

const STEP_LIST: { [K in StepId]: PipelineStep<K> } = {
  analyzing: {
    id: "analyzing",
    input: none,
    output: StepOutputs.shape.analyzing,
    run: (_, env) => analyzing({ title: env.issue.title, body: env.issue.body, labels: env.issue.labels }),
  },
  context: {
    id: "context",
    input: none,
    output: StepOutputs.shape.context,
    run: async (_, env, ctx) => {
      const [repoOwner = "", repo = ""] = owner(env.issue);
      await env.report?.({ files: [], info: [`Reading the file tree of ${env.issue.repo_full_name}`], warnings: [] });
      const gh = (await githubForUser(ctx, env.run.user_id)).client;
      return context(await fetchRepoSnapshot(gh, ctx.redis, ctx.queues.prefix, repoOwner, repo, env.signal));
    },
  },
  dependencies: {
    id: "dependencies",
    input: ({ analyzing, context }) => (analyzing && context ? { analyzing, context } : null),
    output: StepOutputs.shape.dependencies,
    run: async ({ analyzing: a, context: c }, env, ctx) => {
      const client = (await githubForUser(ctx, env.run.user_id)).client;
      const models = modelsConfigFromEnv(ctx.env);
      const model = findModel(models, env.run.model_id || DEFAULT_MODEL_ID);
      const read = (sha: string) => readBlob(client, ctx.redis, ctx.queues.prefix, c.owner, c.repo, sha, env.signal);
      const rerank = embeddingRerankFor(ctx, c, a, read, env.signal, env.meter);
      const r = await dependencies({
        context: c,
        title: a.title,
        body: a.body,
        readBlob: read,
        maxFiles: ctx.env.LOCALIZE_MAX_FILES,
        ...(rerank ? { rerank } : {}),
        ...(model && ctx.env.MODEL_RERANK === "on"
          ? {
              modelRerank: (candidates) =>
                rerankWithModel({
                  models,
                  model,
                  signal: env.signal,
                  title: a.title,
                  body: a.body,
                  candidates,
                  ...(env.meter ? { meter: env.meter } : {}),
                }),
            }
          : {}),
      });
      return {
        output: r.output,
        detail: r.detail,
        ...(r.cost ? { tokensIn: r.cost.tokensIn, tokensOut: r.cost.tokensOut, costUsd: r.cost.usd } : {}),
      };
    },
  },
  generating: {
    id: "generating",
    input: ({ analyzing, context, dependencies }) =>
      analyzing && context && dependencies ? { analyzing, context, dependencies } : null,
    output: StepOutputs.shape.generating,
    run: async (input, env, ctx) => {
      const r = await generateFor(input, env, ctx);
      return { ...r, tokensIn: r.output.tokensIn, tokensOut: r.output.tokensOut, costUsd: r.output.costUsd };
    },
  },
  validating: {
    id: "validating",
    input: ({ analyzing, context, dependencies, generating }) =>
      analyzing && context && dependencies && generating ? { analyzing, context, dependencies, generating } : null,
    output: StepOutputs.shape.validating,
    run: (input, env, ctx) => validateWithTests(input, env, ctx, (extra) => generateFor(input, env, ctx, extra)),
  },
};

/** The five steps in their order. */
export const PIPELINE: readonly AnyPipelineStep[] = STEPS.map((id) => STEP_LIST[id]);

/**
 * The model call with what the earlier steps stored. `extra` (the tests' repair round) works
 * like a refinement: its feedback is appended and its files are the baseline to edit.
 */
async function generateFor(
  { analyzing: a, context: c, dependencies: d }: StepInput<"generating">,
  env: StepEnv,
  ctx: WorkerContext,
  extra?: { feedback: string; baseline: FileChange[] },
): Promise<StepOutcome<StepOutput<"generating">>> {
  const models = modelsConfigFromEnv(ctx.env);
  const model = findModel(models, env.run.model_id || DEFAULT_MODEL_ID);
  if (!model) throw new GenerationError("model.unknown", `Model ${env.run.model_id} is not configured on this server`);
  const request = refineInputOf(env.run.input);
  const feedback = [...request.feedback];
  if (extra) feedback.push(extra.feedback);
  const manualEdits = request.manualEdits.map((m) => ({ filename: m.filename, reason: m.reason }));
  const baseline = extra?.baseline ?? env.baseline;
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
    issueNumber: env.issue.issue_number,
    issueTitle: a.title,
    issueBody: a.body,
    labels: a.labels,
    classification: a.classification,
    files,
    repoMap: d.repoMap,
    feedback,
    manualEdits,
  };
  const raw = { title: env.issue.title, body: env.issue.body ?? "", labels: env.issue.labels, feedback };
  return generating({
    models,
    model,
    baseline,
    signal: env.signal,
    onRetry: env.onModelRetry,
    report: env.report,
    ...(env.meter ? { meter: env.meter } : {}),
    onPrompt: async (p) =>
      env.onPrompt?.(promptRecord({ model, system: p.system, user: p.user, input: prompt, raw, estimate: p.estimate })),
    ...(extra ? { purpose: "tests repair" } : {}),
    prompt,
  });
}
