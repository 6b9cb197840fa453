import { z } from "zod";
import { GeneratedSolution, type ToolSpec, type ModelInfo, type ModelsConfig, costUsd } from "@fixloop/contract";
import { anthropicProvider } from "./anthropic.provider";
import { groqProvider } from "./groq.provider";
import { ModelError, TransientFailure } from "./models.errors";
import { backoffMs, DEFAULT_RETRY_POLICY, sleep } from "./models.retry";
import { openaiProvider } from "./openai.provider";
import { answeredCost, failedCost, worstCase, type RequestMeter } from "./meter";
import { SOLUTION_TOOL, type ProviderCall, type ProviderReply, type ProviderRequest } from "./provider";

export interface GenerateRequest {
  model: ModelInfo;
  system: string;
  prompt: string;
  signal: AbortSignal;
  maxOutputTokens?: number;
  /** Sampling temperature (the providers' default of 0.2 when absent); candidates vary it. */
  temperature?: number;
  onRetry?: (info: { attempt: number; reason: string; waitMs: number }) => void;
  /** Reserves each HTTP request's worst case before it is sent and settles it after (the ledger). */
  meter?: RequestMeter;
  /** Why the call is made, as the ledger records it ("answer" unless said). */
  purpose?: string;
}

export interface GenerateResult {
  solution: GeneratedSolution;
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
  /** Model requests made, retries and the repair included. */
  attempts: number;
  /** Whether the answer needed the one repair round. */
  repaired: boolean;
}

export const DEFAULT_MAX_OUTPUT_TOKENS = 8_192;
const DEFAULT_TIMEOUT_MS = 300_000;

function providerFor(cfg: ModelsConfig, model: ModelInfo): ProviderCall {
  const timeoutMs = cfg.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const missing = (): ModelError => new ModelError("model.auth", `No credentials are configured for ${model.provider}`);
  switch (model.provider) {
    case "groq": {
      if (!cfg.groq) throw missing();
      return groqProvider({ apiKey: cfg.groq.apiKey, baseURL: cfg.groq.baseURL ?? "https://api.groq.com", timeoutMs });
    }
    case "openai": {
      if (!cfg.openai) throw missing();
      const baseURL = cfg.openai.baseURL ?? "https://api.openai.com/v1";
      return openaiProvider({
        apiKey: cfg.openai.apiKey,
        baseURL,
        timeoutMs,
        label: "OpenAI",
        tokenParam: "max_completion_tokens",
      });
    }
    case "anthropic": {
      if (!cfg.anthropic) throw missing();
      return anthropicProvider({
        apiKey: cfg.anthropic.apiKey,
        baseURL: cfg.anthropic.baseURL ?? "https://api.anthropic.com",
        timeoutMs,
      });
    }
    case "openai-compatible": {
      const c = cfg.openaiCompatible;
      if (!c) throw missing();
      // The SDK insists on a key; local servers ignore it.
      return openaiProvider({
        apiKey: c.apiKey || "none",
        baseURL: c.baseURL,
        timeoutMs,
        label: "The model server",
        tokenParam: "max_tokens",
      });
    }
  }
}

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** A JSON object written as text (self-hosted servers often ignore tool_choice), fences allowed. */
function jsonInText(text: string): string | null {
  const start = text.indexOf("{");
  const end = text.lastIndexOf("}");
  return start >= 0 && end > start ? text.slice(start, end + 1) : null;
}

function parseReply<T>(reply: ProviderReply, tool: ToolSpec, schema: z.ZodType<T>): Parsed<T> {
  const fromText = reply.call ? null : jsonInText(reply.text);
  if (!reply.call && fromText === null) return { ok: false, error: `No ${tool.name} tool call was made.` };
  let args = reply.call ? reply.call.args : fromText;
  if (typeof args === "string") {
    try {
      args = JSON.parse(args);
    } catch (err) {
      return {
        ok: false,
        error: `The arguments are not valid JSON: ${err instanceof Error ? err.message : String(err)}`,
      };
    }
  }
  const result = schema.safeParse(args);
  return result.success ? { ok: true, value: result.data } : { ok: false, error: z.prettifyError(result.error) };
}

/** Asks the model for a structured solution through a forced `submit_solution` tool call. */
export async function generateSolution(cfg: ModelsConfig, req: GenerateRequest): Promise<GenerateResult> {
  const { value, ...rest } = await callTool(cfg, req, SOLUTION_TOOL, GeneratedSolution);
  return { solution: value, ...rest };
}

/**
 * One forced tool call whose arguments must match `schema`.
 * Transient failures (429, 5xx, connection) are retried with backoff honouring `retry-after`;
 * malformed output gets one repair round with the validation error; `signal` aborts the HTTP call.
 */
export async function callTool<T>(
  cfg: ModelsConfig,
  req: GenerateRequest,
  tool: ToolSpec,
  schema: z.ZodType<T>,
): Promise<Omit<GenerateResult, "solution"> & { value: T }> {
  const policy = { ...DEFAULT_RETRY_POLICY, ...cfg.retry };
  const call = providerFor(cfg, req.model);
  const cancelled = (cause?: unknown): ModelError =>
    new ModelError("model.cancelled", "The model call was cancelled", { cause });
  const base: ProviderRequest = {
    modelId: req.model.id,
    system: req.system,
    prompt: req.prompt,
    maxOutputTokens: req.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    signal: req.signal,
    ...(tool === SOLUTION_TOOL ? {} : { tool }),
  };
  let next = base;
  let attempts = 0;
  let failures = 0;
  let waited = 0;
  let repaired = false;
  let tokensIn = 0;
  let tokensOut = 0;
  for (;;) {
    if (req.signal.aborted) throw cancelled(req.signal.reason);
    attempts += 1;
    const purpose = `${req.purpose ?? "answer"}${repaired ? ": malformed repair" : ""}`;
    const worst = worstCase(req.model, next);
    const hold = await req.meter?.reserve({ purpose, modelId: req.model.id, attempt: attempts, worst });
    if (req.signal.aborted) {
      await hold?.release("cancelled before sending");
      throw cancelled(req.signal.reason);
    }
    let reply: ProviderReply;
    try {
      reply = await call(next);
    } catch (err) {
      const cost = failedCost(req.model, err, worst);
      await (cost === "not sent" ? hold?.release("not sent: the provider could not be reached") : hold?.settle(cost));
      if (!(err instanceof TransientFailure)) throw err;
      failures += 1;
      const waitMs = err.retryAfterMs ?? backoffMs(policy, failures);
      if (failures >= policy.maxAttempts || waited + waitMs > policy.maxTotalWaitMs) {
        throw new ModelError(err.code, `${err.reason}; gave up after ${attempts} attempt(s)`, { cause: err });
      }
      req.onRetry?.({ attempt: attempts, reason: err.reason, waitMs });
      await sleep(waitMs, req.signal).catch((reason: unknown) => {
        throw cancelled(reason);
      });
      waited += waitMs;
      continue;
    }
    const parsed = parseReply(reply, tool, schema);
    // No usage reported (e.g. Groq's tool_use_failed) or usage that cannot be true: the worst case stands.
    const { note, ...spent } = answeredCost(req.model, reply, worst);
    await hold?.settle({ ...spent, outcome: `${parsed.ok ? "ok" : "malformed"}${note ? `: ${note}` : ""}` });
    tokensIn += spent.tokensIn;
    tokensOut += spent.tokensOut;
    if (parsed.ok) {
      return {
        value: parsed.value,
        tokensIn,
        tokensOut,
        costUsd: costUsd(req.model, tokensIn, tokensOut),
        attempts,
        repaired,
      };
    }
    if (repaired) {
      const err = new ModelError(
        "model.malformed_output",
        `The model's answer was still invalid after a repair attempt: ${parsed.error}`,
      );
      err.tokensIn = tokensIn;
      err.tokensOut = tokensOut;
      throw err;
    }
    repaired = true;
    next = { ...base, repair: { call: reply.call, text: reply.text, error: parsed.error } };
  }
}
