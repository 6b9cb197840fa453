import type { z } from "zod";
import type { ToolSpec } from "@fixloop/contract";
import { callTool, costUsd, ModelError, type GenerateRequest, type ModelsConfig } from "../../models";
import { CostCapExceeded } from "../run.budget";

export interface ToolCost {
  tokensIn: number;
  tokensOut: number;
  usd: number;
}

/** A one-tool request's answer, or why there is none (its cost either way). */
export type ToolAsked<T> =
  | { value: T; cost: ToolCost }
  | {
      value: null;
      cost: ToolCost;
      /** "cap": its reservation did not fit a cost cap (nothing was sent); "error": the model failed or answered badly. */
      refused: "cap" | "error";
      /** The cap's or the error's message, on one line. */
      message: string;
    };

/**
 * One extra model request a step can do without (the rerank, the reproduction test): a forced
 * tool call through the ledger (`req.meter`), whose cap refusal or model error is an answer, not a
 * failure of the run; a malformed answer is still paid for. A cancel is thrown.
 */
export async function askTool<T>(
  models: ModelsConfig,
  req: GenerateRequest,
  tool: ToolSpec,
  schema: z.ZodType<T>,
): Promise<ToolAsked<T>> {
  const none = { tokensIn: 0, tokensOut: 0, usd: 0 };
  try {
    const r = await callTool(models, req, tool, schema);
    return { value: r.value, cost: { tokensIn: r.tokensIn, tokensOut: r.tokensOut, usd: r.costUsd } };
  } catch (err) {
    if (req.signal.aborted) throw err;
    if (err instanceof CostCapExceeded) return { value: null, cost: none, refused: "cap", message: err.message };
    const spent = err instanceof ModelError ? { tokensIn: err.tokensIn ?? 0, tokensOut: err.tokensOut ?? 0 } : null;
    const cost = spent ? { ...spent, usd: costUsd(req.model, spent.tokensIn, spent.tokensOut) } : none;
    return { value: null, cost, refused: "error", message: (err as Error).message.replace(/\s+/g, " ") };
  }
}
