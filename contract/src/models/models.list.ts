import { MODEL_CATALOG, OPENAI_COMPATIBLE_CONTEXT_TOKENS, type ModelInfo } from "./catalog";
import type { ModelsConfig } from "./models.config";
import { SELF_HOSTED_DEFAULT_PRICE } from "./models.pricing";

function compatibleModels(cfg: ModelsConfig): ModelInfo[] {
  const c = cfg.openaiCompatible;
  if (!c) return [];
  let host = c.baseURL;
  try {
    host = new URL(c.baseURL).host;
  } catch {
    // an unparsable URL is shown as written
  }
  return c.models.map((id) => ({
    id,
    name: id,
    description: `Self-hosted model served at ${host}`,
    provider: "openai-compatible" as const,
    ...(c.prices?.[id] ?? SELF_HOSTED_DEFAULT_PRICE),
    contextTokens: OPENAI_COMPATIBLE_CONTEXT_TOKENS,
  }));
}

/** The catalog restricted to providers that have credentials, hosted models first. */
export function listModels(cfg: ModelsConfig): ModelInfo[] {
  const hosted = MODEL_CATALOG.filter((m) => {
    if (m.provider === "groq") return cfg.groq !== undefined;
    if (m.provider === "openai") return cfg.openai !== undefined;
    if (m.provider === "anthropic") return cfg.anthropic !== undefined;
    return false;
  });
  const ids = new Set(hosted.map((m) => m.id));
  return [...hosted, ...compatibleModels(cfg).filter((m) => !ids.has(m.id))];
}

export function findModel(cfg: ModelsConfig, id: string): ModelInfo | undefined {
  return listModels(cfg).find((m) => m.id === id);
}
