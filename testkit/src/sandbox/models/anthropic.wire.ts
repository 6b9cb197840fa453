import { SUBMIT_SOLUTION_TOOL } from "@fixloop/contract";
import type { FaultSpec } from "./control";
import { asRecord, contentText, randomId, type WireResponse } from "./wire";

export interface MessagesRequest {
  model: string;
  system: string;
  prompt: string;
  all: string;
  /** The tool the request forces (or offers first). */
  tool: string;
}

function error(status: number, type: string, message: string, headers: Record<string, string> = {}): WireResponse {
  return { status, headers, body: { type: "error", error: { type, message }, request_id: randomId("req_") } };
}

export const messagesBadRequest = (message: string): WireResponse => error(400, "invalid_request_error", message);
export const messagesUnauthorized = (): WireResponse => error(401, "authentication_error", "invalid x-api-key");
export const messagesNotFound = (): WireResponse => error(404, "not_found_error", "Not Found");

export function parseMessagesRequest(body: unknown): MessagesRequest | string {
  const b = asRecord(body);
  if (!b) return "There was an issue with your request body: it is not a JSON object.";
  if (typeof b.model !== "string" || !b.model) return "model: Field required";
  if (typeof b.max_tokens !== "number") return "max_tokens: Field required";
  if (!Array.isArray(b.messages) || b.messages.length === 0) return "messages: at least one message is required";
  const user: string[] = [];
  const all: string[] = [];
  for (const m of b.messages) {
    const msg = asRecord(m);
    if (!msg || (msg.role !== "user" && msg.role !== "assistant"))
      return "messages: Input should be 'user' or 'assistant'";
    const text = contentText(msg.content);
    all.push(text);
    if (msg.role === "user") user.push(text);
  }
  const system = contentText(b.system);
  return {
    model: b.model,
    system,
    prompt: user.join("\n\n"),
    all: [system, ...all].join("\n") + JSON.stringify(b.tools ?? []),
    tool: forcedTool(b.tool_choice, b.tools),
  };
}

function forcedTool(choice: unknown, tools: unknown): string {
  const named = asRecord(choice)?.name;
  if (typeof named === "string") return named;
  const first = asRecord(Array.isArray(tools) ? tools[0] : undefined)?.name;
  return typeof first === "string" ? first : SUBMIT_SOLUTION_TOOL;
}

export function messagesFault(fault: FaultSpec): WireResponse {
  const headers: Record<string, string> =
    fault.retryAfter !== undefined ? { "retry-after": String(fault.retryAfter) } : {};
  if (fault.status === 429) {
    return error(
      429,
      "rate_limit_error",
      "This request would exceed the rate limit for your organization of 50 requests per minute. Please reduce the prompt length or the maximum tokens requested, or try again later.",
      {
        "anthropic-ratelimit-requests-limit": "50",
        "anthropic-ratelimit-requests-remaining": "0",
        ...headers,
      },
    );
  }
  if (fault.status === 500) return error(500, "api_error", "Internal server error", headers);
  return error(fault.status, "overloaded_error", "Overloaded", headers);
}

/** A tool_use answer, or a text-only answer when `input` is not an object. */
export function messagesResponse(
  model: string,
  input: unknown,
  text: string,
  usage: { input: number; output: number },
  tool = SUBMIT_SOLUTION_TOOL,
): WireResponse {
  return input && typeof input === "object"
    ? messagesToolUseResponse(model, [{ name: tool, input }], usage)
    : messagesContentResponse(model, [{ type: "text", text, citations: null }], usage);
}

/** An assistant message of `tool_use` blocks (several when the model calls tools in parallel), stop_reason "tool_use". */
export function messagesToolUseResponse(
  model: string,
  calls: { name: string; input: unknown; id?: string }[],
  usage: { input: number; output: number },
): WireResponse {
  return messagesContentResponse(
    model,
    calls.map((c) => ({ type: "tool_use", id: c.id ?? randomId("toolu_01", 16), name: c.name, input: c.input })),
    usage,
  );
}

function messagesContentResponse(
  model: string,
  content: Record<string, unknown>[],
  usage: { input: number; output: number },
): WireResponse {
  return {
    status: 200,
    headers: {},
    body: {
      id: randomId("msg_"),
      type: "message",
      role: "assistant",
      model,
      content,
      stop_reason: content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: {
        input_tokens: usage.input,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: usage.output,
        service_tier: "standard",
      },
    },
  };
}
