import Anthropic from "@anthropic-ai/sdk";
import Groq from "groq-sdk";
import OpenAI from "openai";
import { costUsd, type ModelInfo, type ModelsConfig, type ToolSpec } from "@fixloop/contract";
import { ModelError, TransientFailure } from "./models.errors";
import { backoffMs, DEFAULT_RETRY_POLICY, sleep } from "./models.retry";
import { answeredCost, failedCost, maxTokens, tokenCount, type RequestMeter, type Spend } from "./meter";
import { classifySdkError } from "./provider";
import {
  anthropicAgentTools,
  anthropicConversation,
  chatAgentTools,
  chatConversation,
  readArgs,
  type AgentMessage,
  type AgentToolCall,
} from "./agent.wire";

export interface AgentTurnRequest {
  model: ModelInfo;
  system: string;
  messages: AgentMessage[];
  tools: ToolSpec[];
  maxOutputTokens: number;
  signal: AbortSignal;
  meter?: RequestMeter;
  /** What the ledger records the request as, e.g. "agent turn 3". */
  purpose: string;
  onRetry?: (info: { attempt: number; reason: string; waitMs: number }) => void;
}

export interface AgentTurnReply {
  text: string;
  calls: AgentToolCall[];
  tokensIn: number;
  tokensOut: number;
  usd: number;
}

/** Groq takes the same chat body as OpenAI. */
type GroqCreate = Parameters<Groq["chat"]["completions"]["create"]>[0] & { stream?: false };

type Raw = { text: string; calls: AgentToolCall[]; tokensIn: number; tokensOut: number };
type TurnCall = (req: AgentTurnRequest) => Promise<Raw>;

/** Chat completions with the tools offered and one required (OpenAI, Groq and OpenAI-compatible servers). */
function chatTurn(
  create: (
    body: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming,
    signal: AbortSignal,
  ) => Promise<OpenAI.Chat.ChatCompletion>,
  tokenParam: "max_completion_tokens" | "max_tokens",
  sdk: Parameters<typeof classifySdkError>[1],
  label: string,
): TurnCall {
  return async (req) => {
    try {
      const res = await create(
        {
          model: req.model.id,
          messages: chatConversation(req.system, req.messages),
          tools: chatAgentTools(req.tools),
          tool_choice: "required",
          temperature: 0.2,
          [tokenParam]: req.maxOutputTokens,
        },
        req.signal,
      );
      const message = res.choices[0]?.message;
      const calls = (message?.tool_calls ?? []).flatMap((c) =>
        c.type === "function" ? [{ id: c.id, name: c.function.name, ...readArgs(c.function.arguments) }] : [],
      );
      return {
        text: message?.content ?? "",
        calls,
        tokensIn: tokenCount(res.usage?.prompt_tokens) ?? 0,
        tokensOut: tokenCount(res.usage?.completion_tokens) ?? 0,
      };
    } catch (err) {
      throw classifySdkError(err, sdk, req.signal, label);
    }
  };
}

function anthropicTurn(client: Anthropic): TurnCall {
  return async (req) => {
    try {
      const res = await client.messages.create(
        {
          model: req.model.id,
          system: req.system,
          messages: anthropicConversation(req.messages),
          tools: anthropicAgentTools(req.tools),
          tool_choice: { type: "any" },
          max_tokens: req.maxOutputTokens,
        },
        { signal: req.signal },
      );
      const u = res.usage as Partial<typeof res.usage> | undefined;
      return {
        text: res.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n"),
        calls: res.content.flatMap((b) =>
          b.type === "tool_use" ? [{ id: b.id, name: b.name, ...readArgs(b.input) }] : [],
        ),
        tokensIn:
          (tokenCount(u?.input_tokens) ?? 0) +
          (tokenCount(u?.cache_creation_input_tokens) ?? 0) +
          (tokenCount(u?.cache_read_input_tokens) ?? 0),
        tokensOut: tokenCount(u?.output_tokens) ?? 0,
      };
    } catch (err) {
      throw classifySdkError(err, Anthropic, req.signal, "Anthropic");
    }
  };
}

function turnFor(cfg: ModelsConfig, model: ModelInfo): TurnCall {
  const timeout = cfg.timeoutMs ?? 300_000;
  const missing = () => new ModelError("model.auth", `No credentials are configured for ${model.provider}`);
  switch (model.provider) {
    case "groq": {
      if (!cfg.groq) throw missing();
      const g = new Groq({
        apiKey: cfg.groq.apiKey,
        baseURL: cfg.groq.baseURL ?? "https://api.groq.com",
        maxRetries: 0,
        timeout,
      });
      return chatTurn(
        (body, signal) =>
          g.chat.completions.create(body as unknown as GroqCreate, {
            signal,
          }) as unknown as Promise<OpenAI.Chat.ChatCompletion>,
        "max_completion_tokens",
        Groq,
        "Groq",
      );
    }
    case "anthropic": {
      if (!cfg.anthropic) throw missing();
      const a = cfg.anthropic;
      return anthropicTurn(
        new Anthropic({ apiKey: a.apiKey, baseURL: a.baseURL ?? "https://api.anthropic.com", maxRetries: 0, timeout }),
      );
    }
    case "openai":
    case "openai-compatible": {
      const c = model.provider === "openai" ? cfg.openai : cfg.openaiCompatible;
      if (!c) throw missing();
      const baseURL = c.baseURL ?? "https://api.openai.com/v1";
      const o = new OpenAI({ apiKey: c.apiKey || "none", baseURL, maxRetries: 0, timeout });
      const label = model.provider === "openai" ? "OpenAI" : "The model server";
      return chatTurn(
        (body, signal) => o.chat.completions.create(body, { signal }),
        model.provider === "openai" ? "max_completion_tokens" : "max_tokens",
        OpenAI,
        label,
      );
    }
  }
}

/** The most an agent turn can cost: every byte of the conversation and the tools as a token, the whole output allowance. */
export function agentWorstCase(
  model: ModelInfo,
  req: Pick<AgentTurnRequest, "system" | "messages" | "tools" | "maxOutputTokens">,
): Spend {
  const tokensIn =
    maxTokens(req.system) +
    maxTokens(JSON.stringify(req.messages)) +
    maxTokens(JSON.stringify(req.tools)) +
    64 * (req.messages.length + 2);
  return { tokensIn, tokensOut: req.maxOutputTokens, usd: costUsd(model, tokensIn, req.maxOutputTokens) };
}

/**
 * One agent turn: the conversation so far with every tool offered and some tool call required.
 * Reserved in the ledger at its worst case before it is sent and settled to the reported usage
 * after (as every other model request); transient failures are retried with backoff.
 */
export async function agentTurn(cfg: ModelsConfig, req: AgentTurnRequest): Promise<AgentTurnReply> {
  const policy = { ...DEFAULT_RETRY_POLICY, ...cfg.retry };
  const call = turnFor(cfg, req.model);
  const cancelled = (cause?: unknown) => new ModelError("model.cancelled", "The model call was cancelled", { cause });
  let failures = 0;
  let waited = 0;
  for (let attempt = 1; ; attempt++) {
    if (req.signal.aborted) throw cancelled(req.signal.reason);
    const worst = agentWorstCase(req.model, req);
    const hold = await req.meter?.reserve({ purpose: req.purpose, modelId: req.model.id, attempt, worst });
    if (req.signal.aborted) {
      await hold?.release("cancelled before sending");
      throw cancelled(req.signal.reason);
    }
    let raw: Raw;
    try {
      raw = await call(req);
    } catch (err) {
      const cost = failedCost(req.model, err, worst);
      await (cost === "not sent" ? hold?.release("not sent: the provider could not be reached") : hold?.settle(cost));
      if (!(err instanceof TransientFailure)) throw err;
      failures += 1;
      const waitMs = err.retryAfterMs ?? backoffMs(policy, failures);
      if (failures >= policy.maxAttempts || waited + waitMs > policy.maxTotalWaitMs)
        throw new ModelError(err.code, `${err.reason}; gave up after ${attempt} attempt(s)`, { cause: err });
      req.onRetry?.({ attempt, reason: err.reason, waitMs });
      await sleep(waitMs, req.signal).catch((reason: unknown) => {
        throw cancelled(reason);
      });
      waited += waitMs;
      continue;
    }
    const { note, confirmed, ...spent } = answeredCost(req.model, raw, worst);
    const outcome = `${raw.calls.length ? `${raw.calls.length} tool call(s)` : "no tool call"}${note ? `: ${note}` : ""}`;
    await hold?.settle({ ...spent, confirmed, outcome });
    return { text: raw.text, calls: raw.calls, tokensIn: spent.tokensIn, tokensOut: spent.tokensOut, usd: spent.usd };
  }
}
