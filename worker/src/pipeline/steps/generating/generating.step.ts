import { type FileChange, refineInputOf, StepOutputs, type StepInput, type StepOutput } from "@fixloop/contract";
import { githubForUser, type GithubClient } from "@fixloop/runtime";
import type { WorkerContext } from "../../../context";
import { MAX_BLOB_BYTES, readBlob } from "../context/repo-tree";
import { findModel, modelsConfigFromEnv, DEFAULT_MODEL_ID } from "../../../models";
import type { PipelineStep, StepEnv, StepOutcome } from "../step";
import { fileView, FULL_FILE_CHARS } from "./file-view";
import { generating, GenerationError } from "./generating";
import type { PromptFile } from "./prompt";
import { promptRecord } from "./prompt.record";
import { generateCandidates, type CandidateVariant } from "./candidates.generate";
import { reproduceBeforeFix } from "./reproduction.before";

/**
 * Step 4: when the repository's tests can run, the reproduction test is asked and checked on the
 * base tree first; then the model writes the patch (N candidates) from the issue and the files step 3 chose.
 */
export const generatingStep: PipelineStep<"generating"> = {
  id: "generating",
  input: ({ analyzing, context, dependencies }) =>
    analyzing && context && dependencies ? { analyzing, context, dependencies } : null,
  output: StepOutputs.shape.generating,
  run: async (input, env, ctx) => {
    // Before any candidate exists; its line leads the step's detail, live and stored.
    const say = async (line: string) => env.report?.({ files: [], info: [line], warnings: [] });
    const reproduction = await reproduceBeforeFix(input, env, ctx, say);
    const lines = reproduction ? [reproduction.note] : [];
    const report = env.report;
    const told: StepEnv = report ? { ...env, report: (d) => report({ ...d, info: [...lines, ...d.info] }) } : env;
    const r = await generateCandidates(told, (variant) => generateFor(input, told, ctx, undefined, variant));
    const spent = reproduction ?? { tokensIn: 0, tokensOut: 0, costUsd: 0 };
    return {
      output: { ...r.output, ...(reproduction ? { reproduction } : {}) },
      detail: { ...r.detail, info: [...lines, ...r.detail.info] },
      tokensIn: r.output.tokensIn + spent.tokensIn,
      tokensOut: r.output.tokensOut + spent.tokensOut,
      costUsd: r.output.costUsd + spent.costUsd,
    };
  },
};

/**
 * Reads a file of the run's tree that step 3 did not show the model: a regular file of the tree
 * (not a link, not over the blob limit), from the worker's tree cache (the API only when absent).
 */
function unseenReader(c: StepInput<"generating">["context"], env: StepEnv, ctx: WorkerContext) {
  const links = new Set(c.links ?? []);
  const byPath = new Map(c.files.map((f) => [f.path, f]));
  let client: Promise<GithubClient> | undefined;
  return async (path: string): Promise<string | null> => {
    const f = byPath.get(path);
    if (!f || f.link || links.has(path) || f.size > MAX_BLOB_BYTES) return null;
    client ??= githubForUser(ctx, env.run.user_id).then((g) => g.client);
    return readBlob(await client, ctx.redis, ctx.queues.prefix, c.owner, c.repo, f.sha, env.signal);
  };
}

/**
 * The model call with what the earlier steps stored. `extra` (the tests' repair round) works
 * like a refinement: its feedback is appended and its files are the baseline to edit.
 */
export async function generateFor(
  { analyzing: a, context: c, dependencies: d }: StepInput<"generating">,
  env: StepEnv,
  ctx: WorkerContext,
  extra?: { feedback: string; baseline: FileChange[] },
  variant?: CandidateVariant,
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
  // A candidate other than the first sees the files in another order (its context varies, not only its sampling).
  if (variant?.reverseFiles) files.reverse();
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
  // Candidate 1 speaks for the step (progress, the prompt on record, the estimate for all N); the others work quietly.
  const lead = !variant || variant.n === 1;
  const times = variant?.of ?? 1;
  return generating({
    models,
    model,
    baseline,
    signal: env.signal,
    onRetry: env.onModelRetry,
    ...(lead ? { report: env.report } : {}),
    ...(env.meter ? { meter: env.meter } : {}),
    onPrompt: async (p) => {
      if (!lead) return;
      const estimate = { ...p.estimate, usd: p.estimate.usd * times, tokensIn: p.estimate.tokensIn * times };
      await env.onPrompt?.(promptRecord({ model, system: p.system, user: p.user, input: prompt, raw, estimate }));
    },
    ...(extra
      ? { purpose: "tests repair" }
      : variant && variant.n > 1
        ? { purpose: `answer: candidate ${variant.n}` }
        : {}),
    ...(variant?.temperature !== undefined ? { temperature: variant.temperature } : {}),
    readUnseen: unseenReader(c, env, ctx),
    ...(variant && variant.of > 1 ? { attemptNote: variant.note } : {}),
    prompt,
  });
}
