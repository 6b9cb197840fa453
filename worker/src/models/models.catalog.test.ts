import { expect, test } from "vitest";
import { planAllowsProvider } from "@fixloop/contract";
import { loadWorkerEnv } from "../env";
import {
  costUsd,
  DEFAULT_MODEL_ID,
  estimatePromptCost,
  estimateRange,
  findModel,
  listModels,
  modelsConfigFromEnv,
  MODEL_CATALOG,
  parsePrices,
  TYPICAL_OUTPUT_TOKENS,
} from "./index";

test("providers without credentials are not listed", () => {
  const cfg = modelsConfigFromEnv({ GROQ_API_KEY: "gsk_1", OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "   " });
  const models = listModels(cfg);
  expect(models.map((m) => m.provider)).toEqual(["groq", "groq"]);
  expect(findModel(cfg, "gpt-4.1")).toBeUndefined();
  expect(listModels(modelsConfigFromEnv({}))).toEqual([]);
});

test("the default model is Groq's Llama 3.3 70B versatile and is listed first", () => {
  const cfg = modelsConfigFromEnv({ GROQ_API_KEY: "g", OPENAI_API_KEY: "o", ANTHROPIC_API_KEY: "a" });
  const models = listModels(cfg);
  expect(models[0]?.id).toBe(DEFAULT_MODEL_ID);
  expect(models[0]?.provider).toBe("groq");
  expect(new Set(models.map((m) => m.provider))).toEqual(new Set(["groq", "openai", "anthropic"]));
  expect(models).toHaveLength(MODEL_CATALOG.length);
});

test("base URLs are read with their keys", () => {
  const cfg = modelsConfigFromEnv({
    OPENAI_API_KEY: "o",
    OPENAI_BASE_URL: "http://proxy/v1",
    GROQ_BASE_URL: "http://ignored",
  });
  expect(cfg).toEqual({ openai: { apiKey: "o", baseURL: "http://proxy/v1" } });
});

test("each configured OpenAI-compatible model gets its own entry, from a string or a parsed list", () => {
  const fromString = modelsConfigFromEnv({
    OPENAI_COMPATIBLE_BASE_URL: "http://localhost:11434/v1",
    OPENAI_COMPATIBLE_MODELS: "qwen2.5-coder:7b, llama3.1:8b ,",
  });
  const fromList = modelsConfigFromEnv({
    OPENAI_COMPATIBLE_BASE_URL: "http://localhost:11434/v1",
    OPENAI_COMPATIBLE_MODELS: ["qwen2.5-coder:7b", "llama3.1:8b"],
  });
  expect(fromList).toEqual(fromString);
  const models = listModels(fromString);
  expect(models.map((m) => m.id)).toEqual(["qwen2.5-coder:7b", "llama3.1:8b"]);
  expect(models[0]).toMatchObject({
    provider: "openai-compatible",
    inputUsdPerMTok: 0,
    description: expect.stringContaining("localhost:11434"),
  });
  expect(planAllowsProvider("FREE", "openai-compatible")).toBe(true);
});

test("an OpenAI-compatible server without models is not listed", () => {
  expect(
    modelsConfigFromEnv({ OPENAI_COMPATIBLE_BASE_URL: "http://localhost:11434/v1" }).openaiCompatible,
  ).toBeUndefined();
});

test("cost is computed per million tokens from catalog prices", () => {
  const llama = MODEL_CATALOG.find((m) => m.id === DEFAULT_MODEL_ID);
  if (!llama) throw new Error("default model missing");
  expect(costUsd(llama, 1_000_000, 1_000_000)).toBeCloseTo(0.59 + 0.79, 8);
  expect(costUsd(llama, 1234, 567)).toBeCloseTo((1234 * 0.59 + 567 * 0.79) / 1e6, 8);
  expect(costUsd(llama, 0, 0)).toBe(0);
});

test("every catalog entry has a price, a context size and a unique id", () => {
  expect(new Set(MODEL_CATALOG.map((m) => m.id)).size).toBe(MODEL_CATALOG.length);
  for (const m of MODEL_CATALOG) {
    expect(m.inputUsdPerMTok).toBeGreaterThan(0);
    expect(m.outputUsdPerMTok).toBeGreaterThan(0);
    expect(m.contextTokens).toBeGreaterThan(0);
  }
});

test("self-hosted models cost nothing unless the operator prices them by env", () => {
  const cfg = modelsConfigFromEnv({
    OPENAI_COMPATIBLE_BASE_URL: "http://localhost:11434/v1",
    OPENAI_COMPATIBLE_MODELS: "qwen2.5-coder:7b,llama3.1:8b",
    OPENAI_COMPATIBLE_PRICES: "qwen2.5-coder:7b=0.1/0.3",
  });
  const [qwen, llama31] = listModels(cfg);
  if (!qwen) throw new Error("qwen missing");
  expect(qwen).toMatchObject({ inputUsdPerMTok: 0.1, outputUsdPerMTok: 0.3 });
  expect(llama31).toMatchObject({ inputUsdPerMTok: 0, outputUsdPerMTok: 0 });
  expect(costUsd(qwen, 1_000_000, 100_000)).toBeCloseTo(0.13, 8);
  expect(() => parsePrices("qwen=cheap")).toThrow(/qwen=cheap/);
  expect(() =>
    loadWorkerEnv({
      DATABASE_URL: "x",
      REDIS_URL: "y",
      TOKEN_ENCRYPTION_KEYS: "k",
      OPENAI_COMPATIBLE_PRICES: "qwen=1",
    }),
  ).toThrow(/OPENAI_COMPATIBLE_PRICES/);
});

test("an estimate prices the prompt's tokens and a typical answer; the range spans small to large prompts", () => {
  const llama = MODEL_CATALOG.find((m) => m.id === DEFAULT_MODEL_ID);
  if (!llama) throw new Error("default model missing");
  const e = estimatePromptCost(llama, "x".repeat(4000), "y".repeat(400));
  expect(e).toEqual({
    tokensIn: 1100,
    tokensOut: TYPICAL_OUTPUT_TOKENS,
    usd: costUsd(llama, 1100, TYPICAL_OUTPUT_TOKENS),
  });
  const r = estimateRange(llama);
  expect(r.lowUsd).toBeLessThan(r.highUsd);
});
