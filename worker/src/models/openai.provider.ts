import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { GENERATED_SOLUTION_JSON_SCHEMA, SUBMIT_SOLUTION_TOOL } from "../contract/generation";
import {
  classifySdkError,
  repairInstruction,
  TOOL_DESCRIPTION,
  type ProviderCall,
  type ProviderRequest,
} from "./provider";

/** Chat messages in the OpenAI wire format, shared with Groq's OpenAI-compatible API. */
export function chatMessages(req: ProviderRequest): ChatCompletionMessageParam[] {
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
        tool_calls: [
          { id: repair.call.id, type: "function", function: { name: SUBMIT_SOLUTION_TOOL, arguments: args } },
        ],
      },
      { role: "tool", tool_call_id: repair.call.id, content: repairInstruction(repair.error) },
    );
  } else {
    messages.push(
      { role: "assistant", content: repair.text || "(no tool call)" },
      { role: "user", content: repairInstruction(repair.error) },
    );
  }
  return messages;
}

export const CHAT_TOOLS = [
  {
    type: "function" as const,
    function: {
      name: SUBMIT_SOLUTION_TOOL,
      description: TOOL_DESCRIPTION,
      parameters: GENERATED_SOLUTION_JSON_SCHEMA as Record<string, unknown>,
    },
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
    try {
      const res = await client.chat.completions.create(
        {
          model: req.modelId,
          messages: chatMessages(req),
          tools: CHAT_TOOLS,
          tool_choice: { type: "function", function: { name: SUBMIT_SOLUTION_TOOL } },
          temperature: 0.2,
          [opts.tokenParam]: req.maxOutputTokens,
        },
        { signal: req.signal },
      );
      const message = res.choices[0]?.message;
      const call = message?.tool_calls?.find((c) => c.type === "function" && c.function.name === SUBMIT_SOLUTION_TOOL);
      return {
        call: call?.type === "function" ? { id: call.id, args: call.function.arguments } : null,
        text: message?.content ?? "",
        tokensIn: res.usage?.prompt_tokens ?? 0,
        tokensOut: res.usage?.completion_tokens ?? 0,
      };
    } catch (err) {
      throw classifySdkError(err, OpenAI, req.signal, opts.label);
    }
  };
}
