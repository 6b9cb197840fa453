import type { ModelProvider } from "../domain/plans";

/** A model users can pick. Prices are USD per million tokens, as the provider lists them. */
export interface ModelInfo {
  id: string;
  name: string;
  description: string;
  provider: ModelProvider;
  inputUsdPerMTok: number;
  outputUsdPerMTok: number;
  contextTokens: number;
}

/** Groq's Llama 3.3 70B versatile: the model a solve uses when none is chosen. */
export const DEFAULT_MODEL_ID = "llama-3.3-70b-versatile";

/**
 * The hosted models Fixloop offers. Self-hosted OpenAI-compatible models are added per
 * configured id (see `listModels`). A provider's models are listed only when it has credentials.
 */
export const MODEL_CATALOG: readonly ModelInfo[] = [
  {
    id: DEFAULT_MODEL_ID,
    name: "Llama 3.3 70B Versatile",
    description: "Meta's Llama 3.3 70B on Groq: fast, capable on everyday fixes",
    provider: "groq",
    inputUsdPerMTok: 0.59,
    outputUsdPerMTok: 0.79,
    contextTokens: 131_072,
  },
  {
    id: "openai/gpt-oss-120b",
    name: "GPT-OSS 120B",
    description: "OpenAI's open-weight 120B reasoning model on Groq",
    provider: "groq",
    inputUsdPerMTok: 0.15,
    outputUsdPerMTok: 0.6,
    contextTokens: 131_072,
  },
  {
    id: "gpt-4.1",
    name: "GPT-4.1",
    description: "OpenAI's flagship for coding and long context",
    provider: "openai",
    inputUsdPerMTok: 2,
    outputUsdPerMTok: 8,
    contextTokens: 1_047_576,
  },
  {
    id: "gpt-4.1-mini",
    name: "GPT-4.1 mini",
    description: "Smaller, cheaper GPT-4.1 for simple fixes",
    provider: "openai",
    inputUsdPerMTok: 0.4,
    outputUsdPerMTok: 1.6,
    contextTokens: 1_047_576,
  },
  {
    id: "claude-sonnet-4-5",
    name: "Claude Sonnet 4.5",
    description: "Anthropic's strongest model for real-world coding",
    provider: "anthropic",
    inputUsdPerMTok: 3,
    outputUsdPerMTok: 15,
    contextTokens: 200_000,
  },
  {
    id: "claude-haiku-4-5",
    name: "Claude Haiku 4.5",
    description: "Anthropic's fast, low-cost model",
    provider: "anthropic",
    inputUsdPerMTok: 1,
    outputUsdPerMTok: 5,
    contextTokens: 200_000,
  },
];

/** Context size assumed for self-hosted models, whose real limit the server does not report. */
export const OPENAI_COMPATIBLE_CONTEXT_TOKENS = 32_768;
