import { asRecord } from "./wire";

/**
 * The first rule of the chat completions tool-calling conversation a request breaks, as OpenAI
 * (and Groq, vLLM, Ollama behind their OpenAI-compatible routes) answers it with a 400; null when
 * it holds. An assistant message's `tool_calls` must each be answered by a following `tool`
 * message carrying its `tool_call_id`; a `tool` message must answer one of them; an assistant
 * message without tool calls must have text content; arguments travel as a JSON string.
 */
export function chatConversationError(messages: unknown[]): string | null {
  let open: Set<string> | null = null;
  let openAt = -1;
  const unanswered = () =>
    `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...(open ?? [])].join(", ")}`;
  for (const [i, m] of messages.entries()) {
    const msg = asRecord(m) ?? {};
    if (msg.role === "tool") {
      const id = msg.tool_call_id;
      if (typeof id !== "string")
        return `Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.`;
      if (!open?.has(id))
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.`;
      if (typeof msg.content !== "string" && !Array.isArray(msg.content))
        return `Invalid type for 'messages[${i}].content': expected one of a string or array of objects, but got ${msg.content === null ? "null" : typeof msg.content} instead.`;
      open.delete(id);
      continue;
    }
    if (open?.size) return unanswered();
    open = null;
    if (msg.role !== "assistant") continue;
    const calls = msg.tool_calls;
    if (calls === undefined || (Array.isArray(calls) && calls.length === 0)) {
      if (typeof msg.content !== "string" && !Array.isArray(msg.content))
        return `Invalid value for 'content': expected a string, got ${msg.content === null ? "null" : typeof msg.content}.`;
      continue;
    }
    if (!Array.isArray(calls)) return `Invalid type for 'messages[${i}].tool_calls': expected an array.`;
    open = new Set();
    openAt = i;
    for (const [j, c] of calls.entries()) {
      const call = asRecord(c);
      const fn = asRecord(call?.function);
      if (typeof call?.id !== "string") return `Missing required parameter: 'messages[${i}].tool_calls[${j}].id'.`;
      if (call.type !== "function") return `Missing required parameter: 'messages[${i}].tool_calls[${j}].type'.`;
      if (typeof fn?.name !== "string")
        return `Missing required parameter: 'messages[${i}].tool_calls[${j}].function.name'.`;
      if (typeof fn.arguments !== "string")
        return `Invalid type for 'messages[${i}].tool_calls[${j}].function.arguments': expected a string, but got ${typeof fn.arguments} instead.`;
      open.add(call.id);
    }
  }
  // The last assistant message may still wait for its answers only if it is the last message.
  if (open?.size && openAt !== messages.length - 1) return unanswered();
  return null;
}

type Block = Record<string, unknown>;
const blocksOf = (content: unknown): Block[] =>
  typeof content === "string" ? [{ type: "text", text: content }] : Array.isArray(content) ? content.map(asBlock) : [];
const asBlock = (b: unknown): Block => asRecord(b) ?? {};

/**
 * The first rule of the Messages API's tool use a request breaks, as Anthropic answers it with a
 * 400; null when it holds. The message after an assistant's `tool_use` blocks is a user message
 * that starts with a `tool_result` for each of their ids; a `tool_result` answers a `tool_use` of
 * the message just before; no message is empty (but the last assistant one); inputs are objects.
 */
export function messagesConversationError(messages: unknown[]): string | null {
  let uses = new Set<string>();
  for (const [i, m] of messages.entries()) {
    const msg = asRecord(m) ?? {};
    const blocks = blocksOf(msg.content);
    const last = i === messages.length - 1;
    if (!blocks.length && !(last && msg.role === "assistant"))
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    for (const [j, b] of blocks.entries())
      if (b.type === "text" && (typeof b.text !== "string" || !b.text))
        return `messages.${i}.content.${j}.text: text content blocks must be non-empty`;
    if (msg.role === "user") {
      const leading: string[] = [];
      for (const b of blocks) {
        if (b.type !== "tool_result") break;
        leading.push(String(b.tool_use_id));
      }
      const missing = [...uses].filter((id) => !leading.includes(id));
      if (missing.length)
        return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
      for (const [j, b] of blocks.entries())
        if (b.type === "tool_result" && !uses.has(String(b.tool_use_id)))
          return `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(b.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
      uses = new Set();
      continue;
    }
    if (uses.size)
      return `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${[...uses].join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    for (const [j, b] of blocks.entries()) {
      if (b.type !== "tool_use") continue;
      if (typeof b.id !== "string" || typeof b.name !== "string")
        return `messages.${i}.content.${j}.tool_use: id and name: Field required`;
      if (!asRecord(b.input)) return `messages.${i}.content.${j}.tool_use.input: Input should be a valid dictionary`;
      uses.add(b.id);
    }
  }
  return null;
}

/** The tool call ids a request answers in its newest tool results (either wire format), in order. */
export function answeredIds(messages: unknown[]): string[] {
  const out: string[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const msg = asRecord(messages[i]) ?? {};
    if (msg.role === "tool" && typeof msg.tool_call_id === "string") {
      out.unshift(msg.tool_call_id);
      continue;
    }
    if (msg.role === "user" && Array.isArray(msg.content)) {
      const ids = msg.content.map(asBlock).flatMap((b) => (b.type === "tool_result" ? [String(b.tool_use_id)] : []));
      if (ids.length) return ids;
    }
    if (out.length || msg.role === "assistant") break;
  }
  return out;
}
