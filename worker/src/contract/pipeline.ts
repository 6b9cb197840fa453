import { z } from "zod";
import { RUN_STATUSES, TERMINAL_RUN_STATUSES } from "@fixloop/db/domain";
import { SolutionTests, TestsEvent } from "./tests";

/** The five solve steps, in order. Their ids are the ones the web shows and the events carry. */
export const STEPS = ["analyzing", "context", "dependencies", "generating", "validating"] as const;
export const StepId = z.enum(STEPS);
export type StepId = z.infer<typeof StepId>;

export const STEP_LABELS: Record<StepId, string> = {
  analyzing: "Analyzing Issue",
  context: "Gathering Context",
  dependencies: "Building Dependency Graph",
  generating: "Generating Solution",
  validating: "Validating & Finalizing",
};

export const RunStatus = z.enum(RUN_STATUSES);
export type RunStatus = z.infer<typeof RunStatus>;
export const StepStatus = z.enum(["pending", "running", "completed", "failed", "skipped"]);
export type StepStatus = z.infer<typeof StepStatus>;

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

/** Events appended by the worker to a run's Redis stream and relayed as SSE by the API. */
export const RunEvent = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("step"),
    step: StepId,
    status: StepStatus,
    detail: StepDetail,
    at: z.string(),
    cost: StepCost.optional(),
  }),
  z.object({ type: z.literal("completed"), solutionId: z.string(), at: z.string() }),
  z.object({ type: z.literal("failed"), error: ErrorBody, at: z.string() }),
  z.object({ type: z.literal("cancelled"), at: z.string() }),
  TestsEvent,
]);
export type RunEvent = z.infer<typeof RunEvent>;

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
