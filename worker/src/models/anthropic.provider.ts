import Anthropic from "@anthropic-ai/sdk";
import { GENERATED_SOLUTION_JSON_SCHEMA, SUBMIT_SOLUTION_TOOL } from "../contract/generation";
import {
  classifySdkError,
  repairInstruction,
  TOOL_DESCRIPTION,
  type ProviderCall,
  type ProviderRequest,
} from "./provider";

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
      name: SUBMIT_SOLUTION_TOOL,
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
            content: repairInstruction(repair.error),
          },
        ],
      },
    );
  } else {
    out.push(
      { role: "assistant", content: repair.text || "(no tool call)" },
      { role: "user", content: repairInstruction(repair.error) },
    );
  }
  return out;
}

const TOOL: Anthropic.Tool = {
  name: SUBMIT_SOLUTION_TOOL,
  description: TOOL_DESCRIPTION,
  input_schema: { ...GENERATED_SOLUTION_JSON_SCHEMA, required: [...GENERATED_SOLUTION_JSON_SCHEMA.required] },
};

/** Anthropic messages with a forced `submit_solution` tool_use block. */
export function anthropicProvider(opts: { apiKey: string; baseURL: string; timeoutMs: number }): ProviderCall {
  const client = new Anthropic({ apiKey: opts.apiKey, baseURL: opts.baseURL, maxRetries: 0, timeout: opts.timeoutMs });
  return async (req) => {
    try {
      const res = await client.messages.create(
        {
          model: req.modelId,
          system: req.system,
          messages: messages(req),
          tools: [TOOL],
          tool_choice: { type: "tool", name: SUBMIT_SOLUTION_TOOL },
          max_tokens: req.maxOutputTokens,
        },
        { signal: req.signal },
      );
      const block = res.content.find((b) => b.type === "tool_use" && b.name === SUBMIT_SOLUTION_TOOL);
      const text = res.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
      const u = res.usage;
      return {
        call: block?.type === "tool_use" ? { id: block.id, args: block.input } : null,
        text,
        tokensIn: u.input_tokens + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0),
        tokensOut: u.output_tokens,
      };
    } catch (err) {
      throw classifySdkError(err, Anthropic, req.signal, "Anthropic");
    }
  };
}
