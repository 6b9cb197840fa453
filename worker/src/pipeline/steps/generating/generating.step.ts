import { type FileChange, runModeOf, StepOutputs, type StepInput, type StepOutput } from "@fixloop/contract";
import { githubForUser, type GithubClient } from "@fixloop/runtime";
import type { WorkerContext } from "../../../context";
import { MAX_BLOB_BYTES, readBlob } from "../context/repo-tree";
import type { PipelineStep, StepEnv, StepOutcome } from "../step";
import { generating } from "./generating";
import { promptRecord } from "./prompt.record";
import { generateCandidates, type CandidateVariant } from "./candidates.generate";
import { generationContext } from "./generating.context";
import { investigateFor } from "./agent/agent.step";
import { reproduceBeforeFix } from "./reproduction.before";
import { disposePrepared, type Prepared } from "../../../tests-run/run-tests";

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
    // Investigate: each candidate is an agent of its own; a refinement keeps the single pass over its baseline.
    const investigate = runModeOf(env.run.input) === "investigate" && !env.baseline;
    // The agents' commands start from the base tree as the tests see it (its setup done): held until they end.
    let prepared: Prepared | null = null;
    const reproduction = await reproduceBeforeFix(
      input,
      env,
      ctx,
      say,
      investigate ? (p) => void (prepared = p) : undefined,
    );
    const lines = reproduction ? [reproduction.note] : [];
    const report = env.report;
    const told: StepEnv = report ? { ...env, report: (d) => report({ ...d, info: [...lines, ...d.info] }) } : env;
    const held: Prepared | null = prepared;
    const r = await generateCandidates(told, (variant) =>
      investigate ? investigateFor(input, told, ctx, variant, held) : generateFor(input, told, ctx, undefined, variant),
    ).finally(() =>
      held
        ? disposePrepared(held, (err) =>
            ctx.logger.warn({ runId: env.run.id, err: String(err.cause ?? err.message) }, "workspace cleanup failed"),
          )
        : undefined,
    );
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
  const { models, model, prompt, raw, baseline } = await generationContext(
    { analyzing: a, context: c, dependencies: d },
    env,
    ctx,
    extra,
    variant,
  );
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
