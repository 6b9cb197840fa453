import Anthropic from "@anthropic-ai/sdk";
import { classifySdkError, repairInstruction, toolOf, type ProviderCall, type ProviderRequest } from "./provider";
import { tokenCount } from "./meter";

function parsedArgs(args: unknown): unknown {
  if (typeof args !== "string") return args;
  try {
    return JSON.parse(args);
  } catch {
    return {};
  }
}

function messages(req: ProviderRequest): Anthropic.MessageParam[] {
  const out: Anthropic.MessageParam[] = [{ role: "user", content: req.prompt }];
  const repair = req.repair;
  if (!repair) return out;
  if (repair.call) {
    const content: Anthropic.ContentBlockParam[] = repair.text ? [{ type: "text", text: repair.text }] : [];
    content.push({
      type: "tool_use",
      id: repair.call.id,
      name: toolOf(req).name,
      input: parsedArgs(repair.call.args),
    });
    out.push(
      { role: "assistant", content },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: repair.call.id,
            is_error: true,
            content: repairInstruction(repair.error, toolOf(req).name),
          },
        ],
      },
    );
  } else {
    out.push(
      { role: "assistant", content: repair.text || "(no tool call)" },
      { role: "user", content: repairInstruction(repair.error, toolOf(req).name) },
    );
  }
  return out;
}

const anthropicTool = (req: ProviderRequest): Anthropic.Tool => {
  const t = toolOf(req);
  return { name: t.name, description: t.description, input_schema: { ...t.schema, required: [...t.schema.required] } };
};

/** Anthropic messages with a forced `submit_solution` tool_use block. */
export function anthropicProvider(opts: { apiKey: string; baseURL: string; timeoutMs: number }): ProviderCall {
  const client = new Anthropic({ apiKey: opts.apiKey, baseURL: opts.baseURL, maxRetries: 0, timeout: opts.timeoutMs });
  return async (req) => {
    const tool = anthropicTool(req);
    try {
      const res = await client.messages.create(
        {
          model: req.modelId,
          system: req.system,
          messages: messages(req),
          tools: [tool],
          tool_choice: { type: "tool", name: tool.name },
          max_tokens: req.maxOutputTokens,
          ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
        },
        { signal: req.signal },
      );
      const block = res.content.find((b) => b.type === "tool_use" && b.name === tool.name);
      const text = res.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
      // The usage block is the provider's word: absent or odd counts read as none reported.
      const u = res.usage as Partial<typeof res.usage> | undefined;
      return {
        call: block?.type === "tool_use" ? { id: block.id, args: block.input } : null,
        text,
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
