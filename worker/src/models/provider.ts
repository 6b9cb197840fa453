import { GENERATED_SOLUTION_JSON_SCHEMA, SUBMIT_SOLUTION_TOOL, type ToolSpec } from "@fixloop/contract";
import { ModelError, TransientFailure } from "./models.errors";
import { retryAfterMs } from "./models.retry";

/** The tool call a model answered with; `args` is raw JSON text or an already parsed value. */
export interface ToolCall {
  id: string;
  args: string | unknown;
}

/** One model request: the task, plus the rejected previous answer when repairing. */
export interface ProviderRequest {
  modelId: string;
  system: string;
  prompt: string;
  maxOutputTokens: number;
  /** Sampling temperature; 0.2 when absent. */
  temperature?: number;
  signal: AbortSignal;
  repair?: { call: ToolCall | null; text: string; error: string };
  /** The tool the model must call; `submit_solution` when absent. */
  tool?: ToolSpec;
}

export interface ProviderReply {
  call: ToolCall | null;
  /** Text the model produced besides (or instead of) the tool call. */
  text: string;
  tokensIn: number;
  tokensOut: number;
}

export type ProviderCall = (req: ProviderRequest) => Promise<ProviderReply>;

export const TOOL_DESCRIPTION =
  "Submit the fix: root cause analysis, the proposed solution, your confidence (0-100) and the changed files as search/replace edits (full content for new files).";

export const SOLUTION_TOOL: ToolSpec = {
  name: SUBMIT_SOLUTION_TOOL,
  description: TOOL_DESCRIPTION,
  schema: GENERATED_SOLUTION_JSON_SCHEMA,
};

export const toolOf = (req: ProviderRequest): ToolSpec => req.tool ?? SOLUTION_TOOL;

export function repairInstruction(error: string, tool = SUBMIT_SOLUTION_TOOL): string {
  return `Your answer did not match the ${tool} schema:\n${error}\nCall ${tool} again with arguments that match the schema exactly.`;
}

interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error & { status: number | undefined; headers: Headers | undefined };
  APIUserAbortError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
}

/**
 * Maps an SDK error to a final ModelError or a TransientFailure to retry. The three SDKs share
 * the same error hierarchy, so each provider passes its own classes. Anything else (a bug of
 * ours) is returned unchanged so it surfaces as itself.
 */
export function classifySdkError(err: unknown, sdk: SdkErrorClasses, signal: AbortSignal, label: string): unknown {
  if (signal.aborted || err instanceof sdk.APIUserAbortError) {
    return new ModelError("model.cancelled", `The ${label} request was cancelled`, { cause: err });
  }
  if (err instanceof sdk.APIConnectionError) {
    return new TransientFailure("model.unavailable", `${label} could not be reached: ${err.message}`, undefined, {
      cause: err,
    });
  }
  if (err instanceof sdk.APIError && err.status !== undefined) {
    const out = statusError(err, err.status, label);
    out.answered = true;
    return out;
  }
  return err;
}

function statusError(
  err: Error & { headers: Headers | undefined },
  status: number,
  label: string,
): ModelError | TransientFailure {
  const wait = retryAfterMs(err.headers);
  if (status === 429)
    return new TransientFailure("model.rate_limited", `${label} rate limit (429)`, wait, { cause: err });
  if (status >= 500 || status === 408 || status === 409) {
    return new TransientFailure("model.unavailable", `${label} answered ${status}`, wait, { cause: err });
  }
  if (status === 401 || status === 403) {
    return new ModelError("model.auth", `${label} rejected the credentials (${status})`, { cause: err });
  }
  return new ModelError("model.bad_request", `${label} refused the request (${status}): ${err.message}`, {
    cause: err,
  });
}
