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

export const StepDetail = z.object({
  files: z.array(z.string()),
  info: z.array(z.string()),
  warnings: z.array(z.string()),
  score: z.number().min(0).max(100).optional(),
  /** Validating step only: the test evidence (both attempts when a repair round ran). */
  tests: SolutionTests.optional(),
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
  z.object({ type: z.literal("cancelled"), at: z.string() }),
  TestsEvent,
]);
export type RunEvent = z.infer<typeof RunEvent>;

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
