import { queryOptions } from "@tanstack/react-query";
import type { InferResponseType } from "hono/client";
import { api } from "./client";
import { unwrap } from "./errors";

export type SpendingCaps = InferResponseType<typeof api.costs.caps.$get, 200>;

export const spendingCapsQuery = () =>
  queryOptions({ queryKey: ["costs", "caps"], queryFn: () => unwrap(api.costs.caps.$get()) });

/** The cost range of a run on this model before its prompt is known. */
export const costEstimateQuery = (modelId: string, candidates = 1) =>
  queryOptions({
    queryKey: ["costs", "estimate", modelId, candidates],
    queryFn: () => unwrap(api.costs.estimate.$get({ query: { modelId, candidates: String(candidates) } })),
    staleTime: 5 * 60_000,
  });

export type RunPrompt = InferResponseType<(typeof api.runs)[":id"]["prompt"]["$get"], 200>;

/** What the model saw in a run (its generating step's prompt). */
export const runPromptQuery = (runId: string) =>
  queryOptions({
    queryKey: ["runs", runId, "prompt"],
    queryFn: () => unwrap(api.runs[":id"].prompt.$get({ param: { id: runId } })),
  });

/** USD as shown everywhere: four decimals below a dollar, two above. */
export const formatUsd = (usd: number) => `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
