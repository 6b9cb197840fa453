import { type FileChange, refineInputOf, type StepInput } from "@fixloop/contract";
import type { WorkerContext } from "../../../context";
import { findModel, modelsConfigFromEnv, DEFAULT_MODEL_ID } from "../../../models";
import type { StepEnv } from "../step";
import type { CandidateVariant } from "./candidates.generate";
import { fileView, FULL_FILE_CHARS } from "./file-view";
import { GenerationError } from "./generating";
import type { PromptFile } from "./prompt";

/** The model and what it is shown: the issue, step 3's files (with a refinement's or repair's current text), the feedback. */
export async function generationContext(
  { analyzing: a, context: c, dependencies: d }: StepInput<"generating">,
  env: StepEnv,
  ctx: WorkerContext,
  extra?: { feedback: string; baseline: FileChange[] },
  variant?: CandidateVariant,
) {
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
  return { models, model, prompt, raw, baseline };
}
