import type Anthropic from "@anthropic-ai/sdk";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import type { ToolSpec } from "@fixloop/contract";

/** A tool call the model made in an agent turn; `args` is the parsed object ({} when it did not parse). */
export interface AgentToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** Why the arguments could not be read (they were not a JSON object). */
  badArgs?: string;
}

export interface AgentToolResult {
  id: string;
  name: string;
  content: string;
  isError?: boolean;
}

/** One message of an agent's conversation, in our own shape; each provider's wire format is derived from it. */
export type AgentMessage =
  | { role: "user"; text: string }
  | { role: "assistant"; text: string; calls: AgentToolCall[] }
  | { role: "tool"; results: AgentToolResult[]; note?: string };

/** Tool arguments as the chat wire carries them (a JSON text), read back into an object. */
export function readArgs(raw: unknown): { args: Record<string, unknown>; badArgs?: string } {
  let v = raw;
  if (typeof raw === "string") {
    try {
      v = raw.trim() ? JSON.parse(raw) : {};
    } catch (err) {
      return { args: {}, badArgs: `The arguments are not valid JSON: ${(err as Error).message}` };
    }
  }
  if (!v || typeof v !== "object" || Array.isArray(v)) return { args: {}, badArgs: "The arguments are not an object" };
  return { args: v as Record<string, unknown> };
}

/** The conversation as OpenAI chat messages (also Groq's and OpenAI-compatible servers'). */
export function chatConversation(system: string, messages: AgentMessage[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [{ role: "system", content: system }];
  for (const m of messages) {
    if (m.role === "user") out.push({ role: "user", content: m.text });
    else if (m.role === "assistant")
      out.push({
        role: "assistant",
        // Without tool calls the content must be text (null is refused): a silent turn is "".
        content: m.text || (m.calls.length ? null : ""),
        ...(m.calls.length
          ? {
              tool_calls: m.calls.map((c) => ({
                id: c.id,
                type: "function" as const,
                function: { name: c.name, arguments: JSON.stringify(c.args) },
              })),
            }
          : {}),
      });
    else {
      for (const r of m.results) out.push({ role: "tool", tool_call_id: r.id, content: r.content });
      if (m.note) out.push({ role: "user", content: m.note });
    }
  }
  return out;
}

export const chatAgentTools = (tools: ToolSpec[]): ChatCompletionTool[] =>
  tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.schema as Record<string, unknown> },
  }));

/** The conversation as Anthropic messages: tool calls are `tool_use` blocks, their results `tool_result` blocks. */
export function anthropicConversation(messages: AgentMessage[]): Anthropic.MessageParam[] {
  const out: Anthropic.MessageParam[] = [];
  for (const m of messages) {
    if (m.role === "user") out.push({ role: "user", content: m.text });
    else if (m.role === "assistant") {
      const content: Anthropic.ContentBlockParam[] = m.text ? [{ type: "text", text: m.text }] : [];
      for (const c of m.calls) content.push({ type: "tool_use", id: c.id, name: c.name, input: c.args });
      out.push({ role: "assistant", content: content.length ? content : [{ type: "text", text: "(nothing)" }] });
    } else {
      const content: Anthropic.ContentBlockParam[] = m.results.map((r) => ({
        type: "tool_result",
        tool_use_id: r.id,
        content: r.content,
        ...(r.isError ? { is_error: true } : {}),
      }));
      if (m.note) content.push({ type: "text", text: m.note });
      out.push({ role: "user", content });
    }
  }
  return out;
}

export const anthropicAgentTools = (tools: ToolSpec[]): Anthropic.Tool[] =>
  tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: { ...t.schema, required: [...t.schema.required] },
  }));
