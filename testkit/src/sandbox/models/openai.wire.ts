import { SUBMIT_SOLUTION_TOOL } from "@fixloop/contract";
import type { FaultSpec } from "./control";
import { asRecord, contentText, randomId, type WireResponse } from "./wire";

export type ChatFlavor = "openai" | "groq";

export interface ChatRequest {
  model: string;
  system: string;
  prompt: string;
  all: string;
  /** The tool the request forces (or offers first). */
  tool: string;
}

function error(
  status: number,
  headers: Record<string, string>,
  message: string,
  type: string,
  code: string | null,
  flavor: ChatFlavor,
): WireResponse {
  const err = flavor === "openai" ? { message, type, param: null, code } : { message, type, ...(code ? { code } : {}) };
  return { status, headers, body: { error: err } };
}

export function chatBadRequest(message: string, flavor: ChatFlavor): WireResponse {
  return error(400, {}, message, "invalid_request_error", null, flavor);
}

export function chatUnauthorized(flavor: ChatFlavor): WireResponse {
  return flavor === "openai"
    ? error(
        401,
        {},
        "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.",
        "invalid_request_error",
        "invalid_api_key",
        flavor,
      )
    : error(401, {}, "Invalid API Key", "invalid_request_error", "invalid_api_key", flavor);
}

export function chatNotFound(flavor: ChatFlavor): WireResponse {
  return error(
    404,
    {},
    "Unknown request URL. Please check the URL for typos.",
    "invalid_request_error",
    "unknown_url",
    flavor,
  );
}

/** Parses a chat completions body; a string is the 400 message for a bad one. */
export function parseChatRequest(body: unknown): ChatRequest | string {
  const b = asRecord(body);
  if (!b) return "We could not parse the JSON body of your request.";
  if (typeof b.model !== "string" || !b.model) return "you must provide a model parameter";
  if (!Array.isArray(b.messages) || b.messages.length === 0) return "'messages' must contain at least one message";
  const system: string[] = [];
  const user: string[] = [];
  const all: string[] = [];
  for (const m of b.messages) {
    const msg = asRecord(m);
    if (!msg || typeof msg.role !== "string") return "Invalid value for 'messages': each message needs a role.";
    const text = contentText(msg.content);
    all.push(text);
    if (msg.role === "system" || msg.role === "developer") system.push(text);
    else if (msg.role === "user" || msg.role === "tool") user.push(text);
  }
  return {
    model: b.model,
    system: system.join("\n\n"),
    prompt: user.join("\n\n"),
    all: all.join("\n") + JSON.stringify(b.tools ?? []),
    tool: forcedTool(b.tool_choice, b.tools),
  };
}

function forcedTool(choice: unknown, tools: unknown): string {
  const named = asRecord(asRecord(choice)?.function)?.name;
  if (typeof named === "string") return named;
  const first = asRecord(asRecord(Array.isArray(tools) ? tools[0] : undefined)?.function)?.name;
  return typeof first === "string" ? first : SUBMIT_SOLUTION_TOOL;
}

export function chatFault(fault: FaultSpec, model: string, flavor: ChatFlavor): WireResponse {
  const headers: Record<string, string> =
    fault.retryAfter !== undefined ? { "retry-after": String(fault.retryAfter) } : {};
  if (fault.status === 429) {
    const wait = fault.retryAfter ?? 1;
    const message =
      flavor === "openai"
        ? `Rate limit reached for ${model} in organization org-sandbox on requests per min (RPM): Limit 500, Used 500, Requested 1. Please try again in ${wait}s. Visit https://platform.openai.com/account/rate-limits to learn more.`
        : `Rate limit reached for model \`${model}\` in organization \`org_sandbox\` service tier \`on_demand\` on requests per minute (RPM): Limit 30, Used 30, Requested 1. Please try again in ${wait}s.`;
    const limits =
      flavor === "openai"
        ? {
            "x-ratelimit-limit-requests": "500",
            "x-ratelimit-remaining-requests": "0",
            "x-ratelimit-reset-requests": `${wait}s`,
          }
        : {
            "x-ratelimit-limit-requests": "30",
            "x-ratelimit-remaining-requests": "0",
            "x-ratelimit-reset-requests": `${wait}s`,
          };
    return error(429, { ...limits, ...headers }, message, "requests", "rate_limit_exceeded", flavor);
  }
  if (fault.status === 500) {
    const message =
      flavor === "openai"
        ? "The server had an error while processing your request. Sorry about that!"
        : "Internal Server Error";
    return error(500, headers, message, flavor === "openai" ? "server_error" : "internal_server_error", null, flavor);
  }
  const message =
    flavor === "openai" ? "The engine is currently overloaded, please try again later." : "Service Unavailable";
  return error(
    fault.status,
    headers,
    message,
    flavor === "openai" ? "server_error" : "internal_server_error",
    null,
    flavor,
  );
}

/** Groq's answer when the model's forced tool call does not parse. */
export function groqToolUseFailed(failedGeneration: string): WireResponse {
  return {
    status: 400,
    headers: {},
    body: {
      error: {
        message: "Failed to call a function. Please adjust your prompt. See 'failed_generation' for more details.",
        type: "invalid_request_error",
        code: "tool_use_failed",
        failed_generation: failedGeneration,
      },
    },
  };
}

export function chatToolCallResponse(
  model: string,
  args: string,
  usage: { input: number; output: number },
  flavor: ChatFlavor,
  tool = SUBMIT_SOLUTION_TOOL,
): WireResponse {
  // OpenAI reports "stop" when tool_choice names the function; Groq reports "tool_calls".
  return chatToolCallsResponse(
    model,
    [{ name: tool, arguments: args }],
    usage,
    flavor,
    flavor === "openai" ? "stop" : "tool_calls",
  );
}

/**
 * An assistant message making `calls` (parallel tool calls when several), each with an id of the
 * provider's shape the client must echo back in its `tool` message. `finish` is "tool_calls" when
 * the model chose to call (tool_choice "auto" or "required"), "stop" when tool_choice named it.
 */
export function chatToolCallsResponse(
  model: string,
  calls: { name: string; arguments: string; id?: string }[],
  usage: { input: number; output: number },
  flavor: ChatFlavor,
  finish: "stop" | "tool_calls",
): WireResponse {
  const created = Math.floor(Date.now() / 1000);
  const toolCalls = calls.map((c) => ({
    id: c.id ?? (flavor === "openai" ? randomId("call_") : randomId("call_", 9)),
    type: "function",
    function: { name: c.name, arguments: c.arguments },
  }));
  const message =
    flavor === "openai"
      ? { role: "assistant", content: null, tool_calls: toolCalls, refusal: null, annotations: [] }
      : { role: "assistant", tool_calls: toolCalls };
  const choice = { index: 0, message, logprobs: null, finish_reason: finish };
  const total = usage.input + usage.output;
  const body =
    flavor === "openai"
      ? {
          id: randomId("chatcmpl-"),
          object: "chat.completion",
          created,
          model,
          choices: [choice],
          usage: {
            prompt_tokens: usage.input,
            completion_tokens: usage.output,
            total_tokens: total,
            prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
            completion_tokens_details: {
              reasoning_tokens: 0,
              audio_tokens: 0,
              accepted_prediction_tokens: 0,
              rejected_prediction_tokens: 0,
            },
          },
          service_tier: "default",
          system_fingerprint: "fp_sandbox",
        }
      : {
          id: randomId("chatcmpl-"),
          object: "chat.completion",
          created,
          model,
          choices: [choice],
          usage: {
            queue_time: 0.01,
            prompt_tokens: usage.input,
            prompt_time: 0.02,
            completion_tokens: usage.output,
            completion_time: 0.2,
            total_tokens: total,
            total_time: 0.22,
          },
          system_fingerprint: "fp_sandbox",
          x_groq: { id: randomId("req_") },
          service_tier: "on_demand",
        };
  return { status: 200, headers: {}, body };
}
