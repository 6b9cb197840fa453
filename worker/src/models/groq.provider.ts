import Groq from "groq-sdk";
import { chatMessages, chatTools } from "./openai.provider";
import { classifySdkError, toolOf, type ProviderCall, type ProviderReply } from "./provider";
import { tokenCount } from "./meter";

interface ToolUseFailed {
  code?: unknown;
  failed_generation?: unknown;
  error?: { code?: unknown; failed_generation?: unknown };
}

/**
 * Groq validates forced tool calls itself and answers 400 `tool_use_failed` (with the rejected
 * text in `failed_generation`) when the model's call does not parse; that is malformed output
 * to repair, not a bad request.
 */
function toolUseFailed(err: unknown): ProviderReply | null {
  if (!(err instanceof Groq.BadRequestError)) return null;
  const body = (err.error ?? {}) as ToolUseFailed;
  const detail = body.error ?? body;
  if (detail.code !== "tool_use_failed") return null;
  const text = typeof detail.failed_generation === "string" ? detail.failed_generation : "";
  return { call: null, text, tokensIn: 0, tokensOut: 0 };
}

export function groqProvider(opts: { apiKey: string; baseURL: string; timeoutMs: number }): ProviderCall {
  const client = new Groq({ apiKey: opts.apiKey, baseURL: opts.baseURL, maxRetries: 0, timeout: opts.timeoutMs });
  return async (req) => {
    const tool = toolOf(req);
    try {
      const res = await client.chat.completions.create(
        {
          model: req.modelId,
          messages: chatMessages(req) as Groq.Chat.ChatCompletionMessageParam[],
          tools: chatTools(tool),
          tool_choice: { type: "function", function: { name: tool.name } },
          temperature: req.temperature ?? 0.2,
          max_completion_tokens: req.maxOutputTokens,
        },
        { signal: req.signal },
      );
      const message = res.choices[0]?.message;
      const call = message?.tool_calls?.find((c) => c.function.name === tool.name);
      return {
        call: call ? { id: call.id, args: call.function.arguments } : null,
        text: message?.content ?? "",
        tokensIn: tokenCount(res.usage?.prompt_tokens) ?? 0,
        tokensOut: tokenCount(res.usage?.completion_tokens) ?? 0,
      };
    } catch (err) {
      const failed = toolUseFailed(err);
      if (failed && !req.signal.aborted) return failed;
      throw classifySdkError(err, Groq, req.signal, "Groq");
    }
  };
}
