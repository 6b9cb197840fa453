import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answeredIds, chatConversationError, messagesConversationError } from "./agent.conversation";
import { SANDBOX_MODEL_API_KEY, startModelSandbox, type ModelSandbox } from "./index";

const call = (id: string, name = "list_dir", args = "{}") => ({
  id,
  type: "function",
  function: { name, arguments: args },
});
const asked = (...ids: string[]) => ({ role: "assistant", content: null, tool_calls: ids.map((id) => call(id)) });
const answer = (id: string) => ({ role: "tool", tool_call_id: id, content: "ok" });
const task = [
  { role: "system", content: "You investigate." },
  { role: "user", content: "Fix it" },
];

describe("chat completions tool calling, as OpenAI refuses a broken conversation", () => {
  it("takes each call answered by its id, parallel ones together, a note after them", () => {
    expect(
      chatConversationError([
        ...task,
        asked("a", "b"),
        answer("b"),
        answer("a"),
        { role: "user", content: "2 turns left" },
      ]),
    ).toBeNull();
    expect(
      chatConversationError([
        ...task,
        { role: "assistant", content: "thinking" },
        { role: "user", content: "call a tool" },
      ]),
    ).toBeNull();
  });

  it("refuses a call left unanswered, an answer to no call, arguments as an object, a null silent turn", () => {
    expect(chatConversationError([...task, asked("a", "b"), answer("a"), { role: "user", content: "x" }])).toContain(
      "did not have response messages: b",
    );
    expect(chatConversationError([...task, asked("a"), answer("a"), answer("a")])).toContain(
      "must be a response to a preceeding message with 'tool_calls'",
    );
    expect(chatConversationError([...task, asked("a"), answer("z")])).toContain("preceeding message");
    expect(
      chatConversationError([
        ...task,
        { role: "assistant", content: null, tool_calls: [{ ...call("a"), function: { name: "run", arguments: {} } }] },
      ]),
    ).toContain("expected a string");
    expect(
      chatConversationError([...task, { role: "assistant", content: null }, { role: "user", content: "x" }]),
    ).toContain("expected a string, got null");
  });

  it("reads the ids the newest results answer", () => {
    expect(
      answeredIds([...task, asked("a", "b"), answer("a"), answer("b"), { role: "user", content: "note" }]),
    ).toEqual(["a", "b"]);
    expect(answeredIds(task)).toEqual([]);
  });
});

const use = (id: string) => ({ type: "tool_use", id, name: "run", input: { command: "ls" } });
const result = (id: string) => ({ type: "tool_result", tool_use_id: id, content: "ok" });

describe("Messages tool use, as Anthropic refuses a broken conversation", () => {
  it("takes tool_result blocks first in the next user message, text after them", () => {
    const ok = [
      { role: "user", content: "Fix it" },
      { role: "assistant", content: [use("t1"), use("t2")] },
      { role: "user", content: [result("t2"), result("t1"), { type: "text", text: "2 turns left" }] },
    ];
    expect(messagesConversationError(ok)).toBeNull();
    expect(answeredIds(ok)).toEqual(["t2", "t1"]);
  });

  it("refuses a tool_use without its result, text before the results, a foreign id, empty content", () => {
    const head = [
      { role: "user", content: "Fix it" },
      { role: "assistant", content: [use("t1"), use("t2")] },
    ];
    expect(messagesConversationError([...head, { role: "user", content: [result("t1")] }])).toContain(
      "ids were found without `tool_result` blocks immediately after: t2",
    );
    expect(
      messagesConversationError([
        ...head,
        { role: "user", content: [{ type: "text", text: "here" }, result("t1"), result("t2")] },
      ]),
    ).toContain("without `tool_result` blocks immediately after");
    expect(
      messagesConversationError([...head, { role: "user", content: [result("t1"), result("t2"), result("t9")] }]),
    ).toContain("unexpected `tool_use_id` found in `tool_result` blocks: t9");
    expect(
      messagesConversationError([
        ...head.slice(0, 1),
        { role: "assistant", content: [] },
        { role: "user", content: "x" },
      ]),
    ).toContain("non-empty content");
  });
});

describe("the stand-in answers an agent turn as each provider does", () => {
  let sandbox: ModelSandbox;
  beforeAll(async () => {
    sandbox = await startModelSandbox();
  });
  afterAll(() => sandbox.stop());
  const tools = ["run", "submit"].map((name) => ({
    type: "function",
    function: { name, parameters: { type: "object" } },
  }));
  const post = (messages: unknown[]) =>
    fetch(`${sandbox.url}/openai/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${SANDBOX_MODEL_API_KEY}` },
      body: JSON.stringify({ model: "gpt-4.1", messages, tools, tool_choice: "required" }),
    });

  it("parallel calls stop with finish_reason tool_calls; a call left unanswered is a 400", async () => {
    sandbox.control.agentWith(
      () => true,
      [
        [
          { tool: "run", args: { command: "ls" } },
          { tool: "run", args: { command: "pwd" } },
        ],
      ],
    );
    const res = await post(task);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      choices: { finish_reason: string; message: { tool_calls: { id: string }[] } }[];
    };
    expect(body.choices[0]?.finish_reason).toBe("tool_calls");
    const ids = body.choices[0]?.message.tool_calls.map((c) => c.id) ?? [];
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    const broken = await post([...task, asked(...ids), answer(ids[0] ?? "")]);
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { error: { message: string } }).error.message).toContain(ids[1]);
  });
});
