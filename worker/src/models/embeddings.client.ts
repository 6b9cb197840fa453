import OpenAI from "openai";
import type { Embedder } from "../localize/embed-rerank";

export interface EmbeddingsSettings {
  baseURL: string;
  model: string;
  apiKey: string;
  timeoutMs: number;
}

/** The operator's embeddings endpoint, when EMBEDDINGS_BASE_URL and EMBEDDINGS_MODEL are both set. */
export function embeddingsSettings(env: {
  EMBEDDINGS_BASE_URL: string;
  EMBEDDINGS_MODEL: string;
  EMBEDDINGS_API_KEY: string;
  MODEL_TIMEOUT_SECONDS: number;
}): EmbeddingsSettings | undefined {
  const baseURL = env.EMBEDDINGS_BASE_URL.trim();
  const model = env.EMBEDDINGS_MODEL.trim();
  if (!baseURL || !model) return undefined;
  return { baseURL, model, apiKey: env.EMBEDDINGS_API_KEY, timeoutMs: Math.min(60, env.MODEL_TIMEOUT_SECONDS) * 1000 };
}

/**
 * An OpenAI-compatible `POST /v1/embeddings` client (OpenAI, vLLM, Ollama, text-embeddings-inference).
 * Floats are asked for explicitly: self-hosted servers do not all speak the SDK's default base64.
 */
export function openAiEmbedder(s: EmbeddingsSettings, signal?: AbortSignal): Embedder {
  // Self-hosted servers often take no key; the SDK insists on one.
  const client = new OpenAI({ apiKey: s.apiKey || "none", baseURL: s.baseURL, maxRetries: 1, timeout: s.timeoutMs });
  return {
    model: s.model,
    async embed(texts) {
      const res = await client.embeddings.create(
        { model: s.model, input: texts, encoding_format: "float" },
        signal ? { signal } : {},
      );
      const out = new Array<number[]>(texts.length);
      for (const d of res.data) out[d.index] = d.embedding;
      if (out.some((v) => !Array.isArray(v)))
        throw new Error(`the endpoint answered ${res.data.length} vectors for ${texts.length} texts`);
      return out;
    },
  };
}
