import {
  type FileChange,
  type StepDetail,
  type EditFailure,
  type GeneratedSolution,
  type GeneratingOutput,
} from "@fixloop/contract";
import {
  estimatePromptCost,
  generateSolution,
  type CostEstimate,
  type ModelInfo,
  type ModelsConfig,
} from "../../../models";
import type { RequestMeter } from "../../../models/meter";
import { applyGeneratedFiles } from "./apply-edits";
import { FULL_FILE_CHARS } from "./file-view";
import { SYSTEM_PROMPT, buildPrompt, numberLines, type PromptInput } from "./prompt";
import { CostCapExceeded } from "../../run.budget";

export interface GeneratingInput {
  models: ModelsConfig;
  model: ModelInfo;
  prompt: PromptInput;
  /** A refinement's starting point: the solution's current changes (their originalContent is the base). */
  baseline?: FileChange[];
  signal: AbortSignal;
  onRetry?: (info: { attempt: number; reason: string; waitMs: number }) => void;
  report?: (detail: StepDetail) => Promise<void>;
  /** The ledger: every model request's worst case is reserved against the caps before it is sent. */
  meter?: RequestMeter;
  /** Called with the exact prompt and its estimate before the first request (and before the cap check). */
  onPrompt?: (prompt: { system: string; user: string; estimate: CostEstimate }) => Promise<void>;
  /** Why these requests are sent ("answer" unless a caller says otherwise, e.g. the tests' repair round). */
  purpose?: string;
  /** Sampling temperature of a candidate (the provider default when absent). */
  temperature?: number;
  /** Appended to the prompt: which of several independent candidates this request writes. */
  attemptNote?: string;
  /**
   * A repository file at the run's commit that the model was not shown (null: absent, a link, too
   * large, or not to be read). Its search/replace edits apply when they match it exactly.
   */
  readUnseen?: (path: string) => Promise<string | null>;
}

export class GenerationError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "GenerationError";
  }
}

function repairPrompt(base: string, failures: EditFailure[], unseen: Map<string, string>): string {
  const list = failures
    .map((f) => `- ${f.filename}: ${f.reason}${f.search ? `\n  search was:\n${f.search}` : ""}`)
    .join("\n");
  // A file the model edited without being shown it: shown now (in part when long), so its search texts can be copied.
  const shown = [...new Set(failures.map((f) => f.filename))].flatMap((name) => {
    const text = unseen.get(name);
    if (text === undefined) return [];
    const long = text.length > FULL_FILE_CHARS;
    const body = long ? `${numberLines(text.slice(0, FULL_FILE_CHARS))}\n… (the rest is left out)` : numberLines(text);
    return [`### File: ${name} (not among the files above${long ? "; its beginning" : ""})\n${body}`];
  });
  return `${base}\n\nYour previous answer had edits that could not be applied:\n${list}\n${shown.length ? `\n${shown.join("\n\n")}\n\n` : ""}Answer again with search texts copied exactly (without line numbers) from the files above, each occurring once.`;
}

/**
 * The repository's text of each file an answer modifies by search/replace without having been
 * shown it (a model may know a file step 3 did not choose); read once per path.
 */
async function readUnseenFiles(
  files: GeneratedSolution["files"],
  originals: Map<string, string>,
  read: GeneratingInput["readUnseen"],
  into: Map<string, string>,
): Promise<void> {
  if (!read) return;
  for (const f of files) {
    if (f.action !== "modify" || originals.has(f.filename) || into.has(f.filename)) continue;
    const text = await read(f.filename);
    if (text !== null) into.set(f.filename, text);
  }
}

/** New changes over a refinement's baseline: untouched baseline files stay, originals stay the repository's. */
function mergeBaseline(changes: FileChange[], baseline: FileChange[]): FileChange[] {
  const base = new Map(baseline.map((c) => [c.filename, c]));
  const merged = changes.map((c) => {
    const b = base.get(c.filename);
    if (!b) return c;
    base.delete(c.filename);
    return {
      ...c,
      originalContent: b.originalContent,
      action: b.action === "create" && c.action === "modify" ? "create" : c.action,
    };
  });
  return [...merged, ...base.values()];
}

/** Step 4: the model call, then its search/replace edits applied to the originals (one repair round for edits that miss). */
export async function generating(input: GeneratingInput): Promise<{ output: GeneratingOutput; detail: StepDetail }> {
  const originals = new Map(input.prompt.files.map((f) => [f.path, f.content]));
  const partial = new Set(input.prompt.files.flatMap((f) => (f.skeleton ? [f.path] : [])));
  const prompt = buildPrompt(input.prompt) + (input.attemptNote ? `\n\n${input.attemptNote}` : "");
  const asked = [
    `Model: ${input.model.name} (${input.model.provider})`,
    `Sent ${input.prompt.files.length} file(s) to the model; waiting for its answer`,
  ];
  await input.report?.({ files: input.prompt.files.map((f) => f.path), info: asked, warnings: [] });
  const purpose = input.purpose ?? "answer";
  const call = (text: string, why: string) =>
    generateSolution(input.models, {
      model: input.model,
      system: SYSTEM_PROMPT,
      prompt: text,
      signal: input.signal,
      onRetry: input.onRetry,
      purpose: why,
      ...(input.temperature !== undefined ? { temperature: input.temperature } : {}),
      ...(input.meter ? { meter: input.meter } : {}),
    });
  const estimate = estimatePromptCost(input.model, SYSTEM_PROMPT, prompt);
  await input.onPrompt?.({ system: SYSTEM_PROMPT, user: prompt, estimate });

  let result = await call(prompt, purpose);
  let totals = {
    tokensIn: result.tokensIn,
    tokensOut: result.tokensOut,
    costUsd: result.costUsd,
    attempts: result.attempts,
  };
  const unseen = new Map<string, string>();
  const apply = async (files: GeneratedSolution["files"]) => {
    await readUnseenFiles(files, originals, input.readUnseen, unseen);
    return applyGeneratedFiles(files, new Map([...unseen, ...originals]), partial, new Set(unseen.keys()));
  };
  let applied = await apply(result.solution.files);
  let editRepair = false;
  const capWarnings: string[] = [];
  // The repair is worth having, not needed: when its reservation does not fit a cap it is not sent and the answer stands.
  const second = applied.failures.length
    ? await call(repairPrompt(prompt, applied.failures, unseen), `${purpose}: edit repair`).catch((err: unknown) => {
        if (!(err instanceof CostCapExceeded)) throw err;
        capWarnings.push(`Edits that did not match were not sent back for repair: ${err.message}`);
        return null;
      })
    : null;
  if (second) {
    editRepair = true;
    totals = {
      tokensIn: totals.tokensIn + second.tokensIn,
      tokensOut: totals.tokensOut + second.tokensOut,
      costUsd: totals.costUsd + second.costUsd,
      attempts: totals.attempts + second.attempts,
    };
    const retried = await apply(second.solution.files);
    if (retried.failures.length <= applied.failures.length) {
      result = second;
      applied = retried;
    }
  }
  const changes = mergeBaseline(applied.changes, input.baseline ?? []).filter(
    (c) => c.action !== "modify" || c.content !== c.originalContent,
  );
  if (!changes.length) {
    throw new GenerationError(
      "generation.no_changes",
      `The model's edits could not be applied: ${applied.failures.map((f) => `${f.filename}: ${f.reason}`).join("; ") || "no file changed"}`,
    );
  }
  const s = result.solution;
  const warnings = [...applied.failures.map((f) => `Edit to ${f.filename} not applied: ${f.reason}`), ...capWarnings];
  const unseenChanged = changes.filter((c) => unseen.has(c.filename)).map((c) => c.filename);
  if (unseenChanged.length)
    warnings.push(
      `Changed ${unseenChanged.join(", ")}, which step 3 did not show the model: its edits matched the repository's text exactly`,
    );
  if (result.repaired) warnings.push("The model's first answer was malformed and was repaired");
  const info = [
    `Model: ${input.model.name} (${input.model.provider})`,
    `Tokens: ${totals.tokensIn} in, ${totals.tokensOut} out; cost $${totals.costUsd.toFixed(4)}; ${totals.attempts} request(s)`,
    `Confidence: ${Math.round(s.confidence)}%`,
    ...changes.map((c) => `${c.action} ${c.filename}`),
  ];
  if (editRepair) info.push("Edits that did not match were sent back for one repair round");
  return {
    output: {
      analysis: s.analysis,
      proposedSolution: s.proposedSolution,
      confidence: Math.round(s.confidence),
      filesChanged: changes,
      model: { id: input.model.id, name: input.model.name, provider: input.model.provider },
      ...totals,
      repaired: result.repaired,
      editRepair,
      unappliedEdits: applied.failures,
    },
    detail: { files: changes.map((c) => c.filename), info, warnings, score: Math.round(s.confidence) },
  };
}
