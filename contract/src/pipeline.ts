import { RunTrigger } from "./label-trigger";
import { AgentEvent } from "./agent";
import { CandidateEvent } from "./candidates";
import { z } from "zod";
import { ActionViews } from "./actions";
import { type IssueGone, RunStatus, STEP_IDS, StepId, StepStatus, TERMINAL_RUN_STATUSES } from "./domain/statuses";
import { SolutionTests, TestsEvent } from "./tests";

/** The five solve steps, in order. Their ids are the ones the web shows and the events carry. */
export const STEPS = STEP_IDS;

export const STEP_LABELS: Record<StepId, string> = {
  analyzing: "Analyzing Issue",
  context: "Gathering Context",
  dependencies: "Building Dependency Graph",
  generating: "Generating Solution",
  validating: "Validating & Finalizing",
};

/** A function or class the localizer expects the fix to touch, with its evidence. */
export const StepSymbol = z.object({
  path: z.string(),
  name: z.string(),
  kind: z.string(),
  startLine: z.number().int(),
  endLine: z.number().int(),
  reasons: z.array(z.string()),
});
export type StepSymbol = z.infer<typeof StepSymbol>;

/** The model-assisted rerank: what it started from, what the model picked, or why it did not run. */
export const StepRerank = z.object({
  status: z.enum(["applied", "skipped", "failed"]),
  note: z.string(),
  /** The no-model ranking it started from, best first. */
  before: z.array(z.string()),
  /** The model's picks, in its order, with its reasons (empty unless applied). */
  picks: z.array(z.object({ path: z.string(), reason: z.string() })),
});
export type StepRerank = z.infer<typeof StepRerank>;

export const StepDetail = z.object({
  files: z.array(z.string()),
  info: z.array(z.string()),
  warnings: z.array(z.string()),
  score: z.number().min(0).max(100).optional(),
  /** Validating step only: the test evidence (both attempts when a repair round ran). */
  tests: SolutionTests.optional(),
  /** Dependencies step: the top functions and classes of the chosen files. */
  symbols: z.array(StepSymbol).optional(),
  /** Dependencies step: the model-assisted rerank, when a model was at hand. */
  rerank: StepRerank.optional(),
});
export type StepDetail = z.infer<typeof StepDetail>;

const StepSymbols = z.array(StepSymbol);

/** A stored step detail (run_steps.detail) as runs and events carry it: parts that do not match the contract are left out. */
export function stepDetailOf(d: StepDetail): StepDetail {
  const out: StepDetail = { files: d.files, info: d.info, warnings: d.warnings };
  if (d.score !== undefined) out.score = d.score;
  // Every run read presents five steps: an absent part is not parsed (a failed parse builds an error).
  const tests = d.tests === undefined ? undefined : SolutionTests.safeParse(d.tests);
  if (tests?.success) out.tests = tests.data;
  const symbols = d.symbols === undefined ? undefined : StepSymbols.safeParse(d.symbols);
  if (symbols?.success) out.symbols = symbols.data;
  const rerank = d.rerank === undefined ? undefined : StepRerank.safeParse(d.rerank);
  if (rerank?.success) out.rerank = rerank.data;
  return out;
}

/** What a step's model requests cost: recorded tokens and USD, and the estimate made before the call. */
export const StepCost = z.object({
  tokensIn: z.number().int().nonnegative(),
  tokensOut: z.number().int().nonnegative(),
  usd: z.number().nonnegative(),
  estimateUsd: z.number().nonnegative().optional(),
});
export type StepCost = z.infer<typeof StepCost>;

/** A stored step's cost (run_steps columns) as the step events carry it. */
export function stepCost(s: {
  tokens_in: number;
  tokens_out: number;
  cost_usd: string;
  estimate_usd: string | null;
}): StepCost {
  const cost: StepCost = { tokensIn: s.tokens_in, tokensOut: s.tokens_out, usd: Number(s.cost_usd) };
  if (s.estimate_usd !== null) cost.estimateUsd = Number(s.estimate_usd);
  return cost;
}

export const ErrorBody = z.object({ code: z.string(), message: z.string() });
export type ErrorBody = z.infer<typeof ErrorBody>;

/** How a run stopped by Cancel ends. */
export const RUN_CANCELLED: ErrorBody = { code: "run.cancelled", message: "The run was cancelled" };

/**
 * How a run ends that was stopped because its repository left the user's list (GitHub no longer
 * shows it to them): its pull request could not be opened, so nothing more is spent on it.
 */
export const REPOSITORY_ACCESS_LOST: ErrorBody = {
  code: "repository.access_lost",
  message: "You no longer have access to this repository on GitHub, so this run was stopped",
};

/** How a run ends that was stopped because GitHub no longer has its issue (nothing more is spent on it). */
export function issueGoneStop(reason: IssueGone): ErrorBody {
  return {
    code: "issue.gone",
    message:
      reason === "deleted"
        ? "The issue was deleted on GitHub, so this run was stopped"
        : "The issue was transferred to another repository on GitHub, so this run was stopped",
  };
}

/** A step started, reported progress, finished or failed. */
export const StepEvent = z.object({
  type: z.literal("step"),
  step: StepId,
  status: StepStatus,
  detail: StepDetail,
  at: z.string(),
  cost: StepCost.optional(),
});
export type StepEvent = z.infer<typeof StepEvent>;

/**
 * Events appended by the worker to a run's Redis stream and relayed as SSE by the API: each
 * becomes one SSE message named by its `type`, with the event itself as its data. A new kind of
 * event is one more member here (the web's handler is exhaustive over them).
 */
export const RunEvent = z.discriminatedUnion("type", [
  StepEvent,
  z.object({ type: z.literal("completed"), solutionId: z.string(), at: z.string() }),
  z.object({ type: z.literal("failed"), error: ErrorBody, at: z.string() }),
  /** `error` says why when the run was stopped for a reason other than Cancel (an older worker sends none). */
  z.object({ type: z.literal("cancelled"), error: ErrorBody.optional(), at: z.string() }),
  TestsEvent,
  CandidateEvent,
  AgentEvent,
]);
export type RunEvent = z.infer<typeof RunEvent>;

/**
 * A run as the API shows it (GET /api/runs/:id and the first `snapshot` message of its event
 * stream): every step in order.
 */
export const RunView = z.object({
  _id: z.string(),
  id: z.string(),
  kind: z.enum(["solve", "refine", "backtest"]),
  /** `label`: started by the repository's solve label, not by a person pressing Solve. */
  trigger: RunTrigger.optional(),
  /** The label that started it (with `trigger: "label"`). */
  triggerLabel: z.string().optional(),
  /** Who added that label (a login with write access, or one the user listed); absent when the sync found it. */
  triggerSender: z.string().optional(),
  issueId: z.string(),
  modelId: z.string(),
  status: RunStatus,
  currentStep: StepId.nullable(),
  solutionId: z.string().nullable(),
  error: ErrorBody.nullable(),
  tokensIn: z.number(),
  tokensOut: z.number(),
  costUsd: z.number(),
  attempts: z.number(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  steps: z.array(
    z.object({
      id: StepId,
      label: z.string(),
      status: StepStatus,
      detail: StepDetail,
      startedAt: z.string().nullable(),
      finishedAt: z.string().nullable(),
      durationMs: z.number().nullable(),
      tokensIn: z.number(),
      tokensOut: z.number(),
      cost: StepCost,
    }),
  ),
  /** What may be done with the run's issue (resume, a new solve...), or why not: the issue view's `actions`. */
  actions: ActionViews,
});
export type RunView = z.infer<typeof RunView>;

/** Every event type, in the union's order: the SSE event names. */
export const RUN_EVENT_TYPES = RunEvent.options.map((o) => o.shape.type.value);

export const TERMINAL_EVENTS = new Set<RunEvent["type"]>(TERMINAL_RUN_STATUSES);

/** Redis stream holding one run's events; kept for a day after the run ends. */
export function runEventsKey(prefix: string, runId: string): string {
  return `${prefix}:run-events:${runId}`;
}
export const RUN_EVENTS_TTL_SECONDS = 24 * 60 * 60;

/** Pub/sub channel on which any API process asks the worker holding a run's job to cancel it (message: runId). */
export function runCancelChannel(prefix: string): string {
  return `${prefix}:run-cancel`;
}

/** What a step says when it starts again after an earlier attempt left it running. */
export const RESUMED_AFTER_RESTART = "Resumed after a worker restart";
export const RETRIED_AFTER_FAILURE = "Retried after a failed attempt";
