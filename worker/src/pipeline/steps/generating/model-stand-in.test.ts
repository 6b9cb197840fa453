import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { GeneratedSolution } from "@fixloop/contract";
import {
  fallbackSolution,
  promptFiles,
  SANDBOX_MODEL_API_KEY,
  SEED_REPOS,
  SEEDED_FIXES,
  seededSolution,
  seedFiles,
  startModelSandbox,
  type ModelSandbox,
} from "@fixloop/testkit/sandbox";
import { buildPrompt } from "./prompt";

let sandbox: ModelSandbox;
beforeAll(async () => {
  sandbox = await startModelSandbox();
});
afterAll(() => sandbox.stop());
beforeEach(() => sandbox.control.reset());

const chatBody = (prompt: string) => ({
  model: "gpt-4.1",
  messages: [
    { role: "system", content: "sys" },
    { role: "user", content: prompt },
  ],
  tools: [{ type: "function", function: { name: "submit_solution", parameters: {} } }],
  tool_choice: { type: "function", function: { name: "submit_solution" } },
});

function post(
  path: string,
  body: unknown,
  headers: Record<string, string> = { authorization: `Bearer ${SANDBOX_MODEL_API_KEY}` },
) {
  return fetch(`${sandbox.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

describe("OpenAI chat completions wire format", () => {
  test("a forced tool call comes back as tool_calls with usage", async () => {
    const res = await post("/openai/v1/chat/completions", chatBody("### File: a.ts\n1 | const value = compute();"));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
    const json = (await res.json()) as {
      object: string;
      choices: { message: { tool_calls: { type: string; function: { name: string; arguments: string } }[] } }[];
      usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    };
    expect(json.object).toBe("chat.completion");
    const call = json.choices[0]?.message.tool_calls[0];
    expect(call?.function.name).toBe("submit_solution");
    expect(GeneratedSolution.safeParse(JSON.parse(call?.function.arguments ?? "")).success).toBe(true);
    expect(json.usage.total_tokens).toBe(json.usage.prompt_tokens + json.usage.completion_tokens);
  });

  test("a wrong key answers 401 invalid_api_key", async () => {
    const res = await post("/openai/v1/chat/completions", chatBody("x"), { authorization: "Bearer nope" });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { type: "invalid_request_error", code: "invalid_api_key" } });
    expect(sandbox.control.requests).toHaveLength(0);
  });

  test("a 429 carries retry-after and the rate limit error body", async () => {
    sandbox.control.failNext({ status: 429, retryAfter: 7 });
    const res = await post("/openai/v1/chat/completions", chatBody("x"));
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("7");
    expect(await res.json()).toMatchObject({
      error: { code: "rate_limit_exceeded", message: expect.stringContaining("try again in 7s") },
    });
    expect((await post("/openai/v1/chat/completions", chatBody("x"))).status).toBe(200);
  });

  test("a body without messages answers 400", async () => {
    const res = await post("/openai/v1/chat/completions", { model: "gpt-4.1", messages: [] });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { type: "invalid_request_error" } });
  });

  test("an unknown path answers 404", async () => {
    expect((await post("/openai/v1/audio/speech", {})).status).toBe(404);
  });
});

describe("Groq wire format", () => {
  test("malformed output is Groq's 400 tool_use_failed with the failed generation", async () => {
    sandbox.control.malformedNext(1);
    const res = await post("/groq/openai/v1/chat/completions", { ...chatBody("x"), model: "llama-3.3-70b-versatile" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: { code: "tool_use_failed", failed_generation: expect.stringContaining("submit_solution") },
    });
  });

  test("a 503 answers Service Unavailable", async () => {
    sandbox.control.failNext({ status: 503 });
    const res = await post("/groq/openai/v1/chat/completions", { ...chatBody("x"), model: "llama-3.3-70b-versatile" });
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ error: { type: "internal_server_error" } });
  });
});

describe("Anthropic messages wire format", () => {
  const headers = { "x-api-key": SANDBOX_MODEL_API_KEY, "anthropic-version": "2023-06-01" };
  const body = {
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    system: "sys",
    messages: [{ role: "user", content: "### File: x.py\n1 | total = price * qty" }],
  };

  test("the answer is a tool_use block with usage", async () => {
    const res = await post("/anthropic/v1/messages", body, headers);
    expect(res.status).toBe(200);
    expect(res.headers.get("request-id")).toMatch(/^req_/);
    const json = (await res.json()) as {
      type: string;
      stop_reason: string;
      content: { type: string; name: string; input: unknown }[];
      usage: { input_tokens: number; output_tokens: number };
    };
    expect(json).toMatchObject({ type: "message", stop_reason: "tool_use" });
    expect(json.content[0]).toMatchObject({ type: "tool_use", name: "submit_solution" });
    expect(GeneratedSolution.parse(json.content[0]?.input).files[0]?.edits[0]?.replace).toContain("# Fix for:");
    expect(json.usage.input_tokens).toBeGreaterThan(0);
  });

  test("missing max_tokens, a wrong key and overload answer Anthropic's error shapes", async () => {
    const missing = await post("/anthropic/v1/messages", { ...body, max_tokens: undefined }, headers);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error", message: "max_tokens: Field required" },
    });
    const denied = await post("/anthropic/v1/messages", body, { ...headers, "x-api-key": "bad" });
    expect(denied.status).toBe(401);
    expect(await denied.json()).toMatchObject({ type: "error", error: { type: "authentication_error" } });
    sandbox.control.failNext({ status: 529 });
    const overloaded = await post("/anthropic/v1/messages", body, headers);
    expect(overloaded.status).toBe(529);
    expect(await overloaded.json()).toMatchObject({ error: { type: "overloaded_error", message: "Overloaded" } });
  });
});

describe("scripted answers", () => {
  test("every seeded issue is answered with its fix, and each edit applies once to the seeded file", async () => {
    const repos = new Map(SEED_REPOS.map((r) => [`${r.owner}/${r.name}`, seedFiles(r)]));
    expect(SEEDED_FIXES.length).toBeGreaterThan(0);
    for (const fix of SEEDED_FIXES) {
      const answer = seededSolution(SEEDED_FIXES, `Repository: ${fix.repo}\nTitle: ${fix.title}`);
      expect(GeneratedSolution.parse(answer)).toMatchObject({
        analysis: (fix.firstAttempt ?? fix).analysis,
        confidence: 88,
      });
      for (const file of [...fix.files, ...(fix.firstAttempt?.files ?? [])].filter((f) => f.action === "modify")) {
        const content = repos.get(fix.repo)?.[file.filename] ?? "";
        for (const edit of file.edits ?? []) expect(content.split(edit.search).length - 1).toBe(1);
      }
    }
  });

  test("otherwise the first file of a pipeline prompt gets a small edit whose search occurs once", () => {
    const content = 'import x from "y";\n\nexport function add(a: number, b: number) {\n  return a + b;\n}\n';
    const prompt = buildPrompt({
      repository: "o/r",
      issueNumber: 9,
      issueTitle: "add() overflows",
      issueBody: "It breaks",
      labels: [],
      classification: { type: "bug", complexity: "simple" },
      files: [
        { path: "src/add.ts", content, reasons: ["mentioned"] },
        { path: "src/other.ts", content: "other", reasons: [] },
      ],
      repoMap: "src/add.ts",
    });
    expect(promptFiles(prompt).map((f) => f.path)).toEqual(["src/add.ts", "src/other.ts"]);
    const answer = fallbackSolution(prompt);
    const edit = answer.files[0]?.edits[0];
    expect(answer.files[0]?.filename).toBe("src/add.ts");
    expect(content.split(edit?.search ?? "\u0000").length - 1).toBe(1);
    expect(edit?.replace).toContain("// Fix for: add() overflows");
  });

  test("a registered answer wins for matching prompts only, and state is per instance", async () => {
    const other = await startModelSandbox();
    try {
      const mine = {
        analysis: "a",
        proposedSolution: "b",
        confidence: 50,
        files: [{ filename: "f", action: "delete" as const, edits: [] }],
      };
      sandbox.control.respondWith((p) => p.includes("magic"), mine);
      const args = async (url: string, prompt: string) => {
        const res = await fetch(`${url}/openai/v1/chat/completions`, {
          method: "POST",
          headers: { authorization: `Bearer ${SANDBOX_MODEL_API_KEY}` },
          body: JSON.stringify(chatBody(prompt)),
        });
        const json = (await res.json()) as {
          choices: { message: { tool_calls: { function: { arguments: string } }[] } }[];
        };
        return JSON.parse(json.choices[0]?.message.tool_calls[0]?.function.arguments ?? "") as unknown;
      };
      expect(await args(sandbox.url, "the magic word")).toEqual(mine);
      expect(await args(sandbox.url, "plain")).not.toEqual(mine);
      expect(await args(other.url, "the magic word")).not.toEqual(mine);
      expect(other.control.requests).toHaveLength(1);
      expect(sandbox.control.requests.map((r) => r.prompt)).toEqual(["the magic word", "plain"]);
    } finally {
      await other.stop();
    }
  });

  test("latency delays the answer", async () => {
    sandbox.control.latency(300);
    const started = Date.now();
    expect((await post("/openai/v1/chat/completions", chatBody("x"))).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });
});
