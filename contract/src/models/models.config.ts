import { z } from "zod";

/**
 * Provider settings, read by the API (model list, plan checks) and the worker (requests) alike;
 * a provider without a key is not listed.
 */
export const ProviderEnv = z.object({
  GROQ_API_KEY: z.string().default(""),
  GROQ_BASE_URL: z.string().optional(),
  OPENAI_API_KEY: z.string().default(""),
  OPENAI_BASE_URL: z.string().optional(),
  ANTHROPIC_API_KEY: z.string().default(""),
  ANTHROPIC_BASE_URL: z.string().optional(),
  /** Self-hosted OpenAI-compatible endpoint (Ollama, vLLM, LM Studio). */
  OPENAI_COMPATIBLE_BASE_URL: z.string().default(""),
  OPENAI_COMPATIBLE_API_KEY: z.string().default(""),
  /** Model ids served by that endpoint, comma separated. */
  OPENAI_COMPATIBLE_MODELS: z.string().default(""),
});
export type ProviderEnv = z.infer<typeof ProviderEnv>;

/** How transient provider failures (429, 5xx, connection) are retried. */
export interface RetryPolicy {
  /** Model requests allowed for transient failures before giving up, first one included. */
  maxAttempts: number;
  /** First backoff when the provider gives no `retry-after`; doubles each time. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Total time spent waiting between attempts; a `retry-after` beyond it fails at once. */
  maxTotalWaitMs: number;
}
import { parsePrices, type Price } from "./models.pricing";

export interface ProviderCredentials {
  apiKey: string;
  baseURL?: string;
}

/** Which providers are usable and how to reach them; built from env by `modelsConfigFromEnv`. */
export interface ModelsConfig {
  groq?: ProviderCredentials;
  openai?: ProviderCredentials;
  anthropic?: ProviderCredentials;
  /** A self-hosted server speaking the OpenAI API (Ollama, vLLM, LM Studio). */
  openaiCompatible?: { baseURL: string; apiKey?: string; models: string[]; prices?: Record<string, Price> };
  /** Overrides of the retry policy for 429/5xx/connection failures. */
  retry?: Partial<RetryPolicy>;
  /** Per-request timeout; a timed-out request counts as a transient failure. */
  timeoutMs?: number;
}

const text = (v: unknown): string => (typeof v === "string" ? v.trim() : "");

function list(v: unknown): string[] {
  const items = Array.isArray(v) ? v : text(v).split(",");
  return items.map(text).filter(Boolean);
}

function credentials(env: Record<string, unknown>, prefix: string): ProviderCredentials | undefined {
  const apiKey = text(env[`${prefix}_API_KEY`]);
  if (!apiKey) return undefined;
  const baseURL = text(env[`${prefix}_BASE_URL`]);
  return baseURL ? { apiKey, baseURL } : { apiKey };
}

/** Reads the provider settings shared by the API's and the worker's env objects. */
export function modelsConfigFromEnv(env: Record<string, unknown>): ModelsConfig {
  const cfg: ModelsConfig = {};
  const groq = credentials(env, "GROQ");
  const openai = credentials(env, "OPENAI");
  const anthropic = credentials(env, "ANTHROPIC");
  if (groq) cfg.groq = groq;
  if (openai) cfg.openai = openai;
  if (anthropic) cfg.anthropic = anthropic;
  const baseURL = text(env.OPENAI_COMPATIBLE_BASE_URL);
  const models = list(env.OPENAI_COMPATIBLE_MODELS);
  if (baseURL && models.length > 0) {
    const apiKey = text(env.OPENAI_COMPATIBLE_API_KEY);
    cfg.openaiCompatible = apiKey ? { baseURL, apiKey, models } : { baseURL, models };
    const prices = text(env.OPENAI_COMPATIBLE_PRICES);
    if (prices) cfg.openaiCompatible.prices = parsePrices(prices);
  }
  const timeoutSeconds = Number(env.MODEL_TIMEOUT_SECONDS);
  if (Number.isFinite(timeoutSeconds) && timeoutSeconds > 0) cfg.timeoutMs = timeoutSeconds * 1000;
  return cfg;
}
