import type { GeneratingOutput, StepInput } from "@fixloop/contract";
import { AGENT_END_TEXT, estimatePromptCost } from "@fixloop/contract";
import { githubForUser } from "@fixloop/runtime";
import type { WorkerContext } from "../../../../context";
import { testsConfig } from "../../../../tests-run/tests.config";
import { baseTree } from "../../../../tests-run/workspace";
import { fetchTreeInto } from "../../../../tests-run/workspace.github";
import type { StepEnv, StepOutcome } from "../../step";
import type { CandidateVariant } from "../candidates.generate";
import { generationContext } from "../generating.context";
import { GenerationError } from "../generating";
import { buildPrompt } from "../prompt";
import { promptRecord } from "../prompt.record";
import type { Prepared } from "../../../../tests-run/run-tests";
import { agentLoop } from "./agent.loop";
import { AgentSetUp } from "./agent.setup";
import { AGENT_SYSTEM_PROMPT } from "./agent.tools.schema";
import { WorkingCopy } from "./agent.workspace";

const AGENT_CLOSING =
  "These files are where step 3's ranking starts you; the whole repository is yours to search, open and run. Investigate, edit, check your fix with run, then call submit.";
const TURN_OUTPUT_TOKENS = 4_096;

/**
 * Step 4 in Investigate mode for one candidate: the agent loop over the run's tree at its commit
 * (the worker's tree cache), starting from the issue and step 3's files. Its edits become the
 * candidate's files, which step 5 validates as it does a single pass's.
 */
export async function investigateFor(
  input: StepInput<"generating">,
  env: StepEnv,
  ctx: WorkerContext,
  variant?: CandidateVariant,
  /** The base tree step 4 prepared for the tests (its plan, a networked setup's tree); null without one. */
  prepared: Prepared | null = null,
): Promise<StepOutcome<GeneratingOutput>> {
  const { models, model, prompt, raw } = await generationContext(input, env, ctx, undefined, variant);
  const c = input.context;
  const n = variant?.n ?? 1;
  const lead = n === 1;
  const task = buildPrompt(prompt, AGENT_CLOSING) + (variant && variant.of > 1 ? `\n\n${variant.note}` : "");
  if (lead) {
    const estimate = estimatePromptCost(model, AGENT_SYSTEM_PROMPT, task);
    await env.onPrompt?.(
      promptRecord({ model, system: AGENT_SYSTEM_PROMPT, user: task, input: prompt, raw, estimate }),
    );
  }
  const cfg = testsConfig(ctx.env);
  const gh = (await githubForUser(ctx, env.run.user_id)).client;
  const tree = await baseTree(cfg.cache, c.owner, c.repo, c.commitSha, (dir) =>
    fetchTreeInto(gh, c.owner, c.repo, c.commitSha, dir, { maxBytes: cfg.maxRepoBytes, signal: env.signal }).then(
      () => undefined,
    ),
  );
  const copy = new WorkingCopy(tree.dir);
  if (lead)
    await env.report?.({
      files: prompt.files.map((f) => f.path),
      info: [
        `Model: ${model.name} (${model.provider})`,
        "Investigating: the agent explores, runs and edits before it submits",
      ],
      warnings: cfg.runner ? [] : ["The sandbox is off on this server: the agent cannot run commands"],
    });
  const setUp = new AgentSetUp({
    prepared,
    baseDir: tree.dir,
    runner: cfg.runner,
    cache: cfg.cache,
    limits: cfg.limits,
    onCleanupError: (err) =>
      ctx.logger.warn({ runId: env.run.id, err: String(err.cause ?? err.message) }, "workspace cleanup failed"),
  });
  const r = await agentLoop({
    models,
    model,
    task,
    tools: {
      copy,
      runner: cfg.runner,
      cache: cfg.cache,
      limits: cfg.limits,
      runTimeoutMs: ctx.env.AGENT_RUN_TIMEOUT_SECONDS * 1000,
      signal: env.signal,
      setUp,
    },
    maxTurns: ctx.env.AGENT_MAX_TURNS,
    wallMs: ctx.env.AGENT_WALL_SECONDS * 1000,
    signal: env.signal,
    ...(env.meter ? { meter: env.meter } : {}),
    maxOutputTokens: TURN_OUTPUT_TOKENS,
    n,
    ...(env.onTestsEvent ? { emit: env.onTestsEvent } : {}),
    ...(env.onModelRetry ? { onRetry: env.onModelRetry } : {}),
  }).finally(() => setUp.dispose());
  const changes = await copy.changes();
  if (!changes.length) {
    // A cap that left nothing to validate stops the run as a cap does (resumable once raised).
    if (r.cap) throw r.cap;
    throw new GenerationError("generation.no_changes", `The agent made no change: ${AGENT_END_TEXT[r.endedBy]}`);
  }
  const ended = `Ended: ${AGENT_END_TEXT[r.endedBy]} after ${r.turns} turn(s)`;
  const s = r.submitted ?? {
    analysis: `The agent did not submit (${AGENT_END_TEXT[r.endedBy]}); its edits so far are the change.`,
    proposedSolution: changes.map((f) => `${f.action} ${f.filename}`).join("\n"),
    confidence: 0,
  };
  const confidence = Math.round(s.confidence);
  const info = [
    `Model: ${model.name} (${model.provider}), Investigate`,
    ended,
    `Tokens: ${r.tokensIn} in, ${r.tokensOut} out; cost $${r.usd.toFixed(4)}; ${r.turns} turn(s); tools ${(r.toolMs / 1000).toFixed(1)} s of ${(r.wallMs / 1000).toFixed(1)} s`,
    `Confidence: ${confidence}%`,
    ...changes.map((f) => `${f.action} ${f.filename}`),
  ];
  const refused = r.actions.filter((a) => a.refused).length;
  const warnings = [
    ...(r.endedBy === "submitted"
      ? []
      : [`The agent did not submit: ${AGENT_END_TEXT[r.endedBy]}; its edits are kept`]),
    ...(refused ? [`${refused} tool call(s) were refused by the agent's walls`] : []),
  ];
  return {
    output: {
      analysis: s.analysis,
      proposedSolution: s.proposedSolution,
      confidence,
      filesChanged: changes,
      model: { id: model.id, name: model.name, provider: model.provider },
      tokensIn: r.tokensIn,
      tokensOut: r.tokensOut,
      costUsd: r.usd,
      attempts: r.turns,
      repaired: false,
      editRepair: false,
      unappliedEdits: [],
      agent: [
        {
          n,
          endedBy: r.endedBy,
          turns: r.turns,
          actions: r.actions,
          toolMs: r.toolMs,
          wallMs: r.wallMs,
          tokensIn: r.tokensIn,
          tokensOut: r.tokensOut,
        },
      ],
    },
    detail: { files: changes.map((f) => f.filename), info, warnings, score: confidence },
    tokensIn: r.tokensIn,
    tokensOut: r.tokensOut,
    costUsd: r.usd,
  };
}
