import { describe, expect, it } from "vitest";
import { chatConversationError, messagesConversationError } from "@fixloop/testkit/sandbox";
import { anthropicConversation, chatConversation, type AgentMessage } from "./agent.wire";

/** A conversation with every shape the loop makes: parallel calls, a refusal, a turn without a call, a note. */
const CONVERSATION: AgentMessage[] = [
  { role: "user", text: "Fix the trailing tabs" },
  {
    role: "assistant",
    text: "",
    calls: [
      { id: "c1", name: "search", args: { query: "TRAILING" } },
      { id: "c2", name: "open_file", args: {}, badArgs: "The arguments are not valid JSON" },
    ],
  },
  {
    role: "tool",
    results: [
      { id: "c1", name: "search", content: "src/a.js:1: TRAILING" },
      { id: "c2", name: "open_file", content: "refused", isError: true },
    ],
    note: "2 turn(s) left",
  },
  { role: "assistant", text: "", calls: [] },
  { role: "user", text: "Answer by calling one of the tools." },
  { role: "assistant", text: "Running it", calls: [{ id: "c3", name: "run", args: { command: "ls" } }] },
  { role: "tool", results: [{ id: "c3", name: "run", content: "exit code 0" }] },
];

describe("the agent's conversation in each provider's wire format", () => {
  it("keeps the chat completions rules: every call answered by id, a silent turn's content is text", () => {
    const messages = chatConversation("You investigate.", CONVERSATION);
    expect(chatConversationError(messages)).toBeNull();
    expect(messages[6]).toEqual({ role: "assistant", content: "" });
    expect(messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id)).toEqual(["c1", "c2", "c3"]);
  });

  it("keeps the Messages rules: tool_result blocks first in the next user message, errors flagged", () => {
    const messages = anthropicConversation(CONVERSATION);
    expect(messagesConversationError(messages)).toBeNull();
    expect(messages[2]?.content).toEqual([
      { type: "tool_result", tool_use_id: "c1", content: "src/a.js:1: TRAILING" },
      { type: "tool_result", tool_use_id: "c2", content: "refused", is_error: true },
      { type: "text", text: "2 turn(s) left" },
    ]);
  });
});
