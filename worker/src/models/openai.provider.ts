import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import type { ToolSpec } from "@fixloop/contract";
import { classifySdkError, repairInstruction, toolOf, type ProviderCall, type ProviderRequest } from "./provider";
import { tokenCount } from "./meter";

/** Chat messages in the OpenAI wire format, shared with Groq's OpenAI-compatible API. */
export function chatMessages(req: ProviderRequest): ChatCompletionMessageParam[] {
  const tool = toolOf(req).name;
  const messages: ChatCompletionMessageParam[] = [
    { role: "system", content: req.system },
    { role: "user", content: req.prompt },
  ];
  const repair = req.repair;
  if (!repair) return messages;
  if (repair.call) {
    const args = typeof repair.call.args === "string" ? repair.call.args : JSON.stringify(repair.call.args);
    messages.push(
      {
        role: "assistant",
        content: repair.text || null,
        tool_calls: [{ id: repair.call.id, type: "function", function: { name: tool, arguments: args } }],
      },
      { role: "tool", tool_call_id: repair.call.id, content: repairInstruction(repair.error, tool) },
    );
  } else {
    messages.push(
      { role: "assistant", content: repair.text || "(no tool call)" },
      { role: "user", content: repairInstruction(repair.error, tool) },
    );
  }
  return messages;
}

/** The chat `tools` list offering one tool. */
export const chatTools = (tool: ToolSpec) => [
  {
    type: "function" as const,
    function: { name: tool.name, description: tool.description, parameters: tool.schema as Record<string, unknown> },
  },
];

export interface OpenAIProviderOptions {
  apiKey: string;
  baseURL: string;
  timeoutMs: number;
  label: string;
  /** Self-hosted servers (older Ollama, LM Studio) know only `max_tokens`. */
  tokenParam: "max_completion_tokens" | "max_tokens";
}

/** OpenAI chat completions with a forced `submit_solution` call; also serves OpenAI-compatible servers. */
export function openaiProvider(opts: OpenAIProviderOptions): ProviderCall {
  const client = new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseURL, maxRetries: 0, timeout: opts.timeoutMs });
  return async (req) => {
    const tool = toolOf(req);
    try {
      const res = await client.chat.completions.create(
        {
          model: req.modelId,
          messages: chatMessages(req),
          tools: chatTools(tool),
          tool_choice: { type: "function", function: { name: tool.name } },
          temperature: req.temperature ?? 0.2,
          [opts.tokenParam]: req.maxOutputTokens,
        },
        { signal: req.signal },
      );
      const message = res.choices[0]?.message;
      const call = message?.tool_calls?.find((c) => c.type === "function" && c.function.name === tool.name);
      return {
        call: call?.type === "function" ? { id: call.id, args: call.function.arguments } : null,
        text: message?.content ?? "",
        tokensIn: tokenCount(res.usage?.prompt_tokens) ?? 0,
        tokensOut: tokenCount(res.usage?.completion_tokens) ?? 0,
      };
    } catch (err) {
      throw classifySdkError(err, OpenAI, req.signal, opts.label);
    }
  };
}
