import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import type { GeneratedSolution } from "@fixloop/contract";
import { findModel, generateSolution, modelsConfigFromEnv, type ModelInfo, type ModelsConfig } from "./index";
import { DEFAULT_MAX_OUTPUT_TOKENS } from "./generate";
import { worstCase } from "./meter";
import { SOLUTION_TOOL } from "./provider";

let sandbox: ModelSandbox;
let cfg: ModelsConfig;

const SOLUTION: GeneratedSolution = {
  analysis: "The divide helper does not guard against a zero divisor.",
  proposedSolution: "Throw a RangeError when the divisor is zero.",
  confidence: 91,
  files: [
    {
      filename: "src/math.ts",
      action: "modify",
      edits: [
        { search: "return a / b;", replace: 'if (b === 0) throw new RangeError("division by zero");\n  return a / b;' },
      ],
    },
  ],
};

beforeAll(async () => {
  sandbox = await startModelSandbox();
  cfg = {
    ...modelsConfigFromEnv(sandbox.env),
    openaiCompatible: { baseURL: sandbox.compatibleBaseURL, models: ["qwen2.5-coder:7b"] },
  };
});
afterAll(() => sandbox.stop());
beforeEach(() => sandbox.control.reset());

function model(id: string): ModelInfo {
  const m = findModel(cfg, id);
  if (!m) throw new Error(`model ${id} not configured`);
  return m;
}

const ask = (id: string, prompt: string) =>
  generateSolution(cfg, { model: model(id), system: "You fix issues.", prompt, signal: new AbortController().signal });

describe("each provider round-trips a structured solution through its SDK", () => {
  test.each([
    ["llama-3.3-70b-versatile", "groq"],
    ["gpt-4.1", "openai"],
    ["claude-sonnet-4-5", "anthropic"],
    ["qwen2.5-coder:7b", "openai"],
  ])("%s", async (id, provider) => {
    sandbox.control.respondWith((p) => p.includes("divide by zero"), SOLUTION);
    const result = await ask(id, "Issue: divide by zero crashes the app");
    expect(result.solution).toEqual(SOLUTION);
    expect(result.attempts).toBe(1);
    expect(result.repaired).toBe(false);
    expect(result.tokensIn).toBeGreaterThan(0);
    expect(result.tokensOut).toBeGreaterThan(0);
    const seen = sandbox.control.requests.at(-1);
    expect(seen?.provider).toBe(provider);
    expect(seen?.model).toBe(id);
    expect(seen?.system).toBe("You fix issues.");
    expect(seen?.prompt).toContain("divide by zero");
  });
});

test("the stand-in answers a seeded issue with its known fix by default", async () => {
  const result = await ask(
    "llama-3.3-70b-versatile",
    "Title: Fix the page offset in paginate()\n\nPage 2 skips an item.",
  );
  expect(result.solution.confidence).toBe(88);
  expect(result.solution.files[0]?.filename).toBe("src/paginate.ts");
  expect(result.solution.files[0]?.edits[0]?.replace).toBe("  const start = (current - 1) * size;\n");
});

test("cost is the catalog price applied to the reported tokens", async () => {
  sandbox.control.usage({ input: 1_000, output: 500 });
  const gpt = await ask("gpt-4.1", "anything");
  expect(gpt.tokensIn).toBe(1_000);
  expect(gpt.tokensOut).toBe(500);
  expect(gpt.costUsd).toBeCloseTo((1_000 * 2 + 500 * 8) / 1e6, 9);
  const claude = await ask("claude-sonnet-4-5", "anything");
  expect(claude.costUsd).toBeCloseTo((1_000 * 3 + 500 * 15) / 1e6, 9);
  const local = await ask("qwen2.5-coder:7b", "anything");
  expect(local.costUsd).toBe(0);
});

describe("usage a provider cannot have counted is not taken at its word", () => {
  const prompt = "Issue: divide by zero crashes the app";
  const worstOf = (id: string) => worstCase(model(id), { ...request(id), prompt });
  const request = (id: string) => ({
    modelId: id,
    system: "You fix issues.",
    prompt,
    tool: SOLUTION_TOOL,
    maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
    signal: new AbortController().signal,
  });

  test.each(["llama-3.3-70b-versatile", "gpt-4.1", "claude-sonnet-4-5", "qwen2.5-coder:7b"])("%s", async (id) => {
    sandbox.control.respondWith((p) => p.includes("divide by zero"), SOLUTION);
    const worst = worstOf(id);
    // More tokens than the request holds bytes, and more output than it allowed.
    sandbox.control.usage({ input: 5e9, output: 5e9 });
    const huge = await ask(id, prompt);
    expect(huge.solution).toEqual(SOLUTION);
    expect([huge.tokensIn, huge.tokensOut]).toEqual([worst.tokensIn, worst.tokensOut]);
    expect(huge.costUsd).toBeCloseTo(worst.usd, 9);
    // Counts that are not numbers at all (the SDKs hand the JSON over unchecked).
    sandbox.control.usage({ input: "lots" as unknown as number, output: -3 });
    const junk = await ask(id, prompt);
    expect([junk.tokensIn, junk.tokensOut]).toEqual([worst.tokensIn, worst.tokensOut]);
    expect(Number.isFinite(junk.costUsd)).toBe(true);
  });
});

test("wrong credentials fail at once with model.auth", async () => {
  const bad = { ...cfg, openai: { apiKey: "sk-wrong", baseURL: sandbox.env.OPENAI_BASE_URL ?? "" } };
  const err = await generateSolution(bad, {
    model: model("gpt-4.1"),
    system: "s",
    prompt: "p",
    signal: new AbortController().signal,
  }).catch((e: unknown) => e);
  expect(err).toMatchObject({ name: "ModelError", code: "model.auth", retryable: false });
  expect(sandbox.control.requests).toHaveLength(0);
});
