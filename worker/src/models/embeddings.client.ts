import OpenAI from "openai";
import { costUsd, parsePrices, SELF_HOSTED_DEFAULT_PRICE, type Price } from "@fixloop/contract";
import type { Embedder } from "../localize/embed-rerank";
import { answeredCost, failedCost, maxTokens, type RequestMeter, type Spend } from "./meter";

export interface EmbeddingsSettings {
  baseURL: string;
  model: string;
  apiKey: string;
  timeoutMs: number;
  /** USD per million input tokens, from OPENAI_COMPATIBLE_PRICES (unpriced: free, as self-hosted models). */
  price: Price;
}

/** The operator's embeddings endpoint, when EMBEDDINGS_BASE_URL and EMBEDDINGS_MODEL are both set. */
export function embeddingsSettings(env: {
  EMBEDDINGS_BASE_URL: string;
  EMBEDDINGS_MODEL: string;
  EMBEDDINGS_API_KEY: string;
  MODEL_TIMEOUT_SECONDS: number;
  OPENAI_COMPATIBLE_PRICES: string;
}): EmbeddingsSettings | undefined {
  const baseURL = env.EMBEDDINGS_BASE_URL.trim();
  const model = env.EMBEDDINGS_MODEL.trim();
  if (!baseURL || !model) return undefined;
  return {
    baseURL,
    model,
    apiKey: env.EMBEDDINGS_API_KEY,
    timeoutMs: Math.min(60, env.MODEL_TIMEOUT_SECONDS) * 1000,
    price: parsePrices(env.OPENAI_COMPATIBLE_PRICES)[model] ?? SELF_HOSTED_DEFAULT_PRICE,
  };
}

/**
 * An OpenAI-compatible `POST /v1/embeddings` client (OpenAI, vLLM, Ollama, text-embeddings-inference).
 * Floats are asked for explicitly: self-hosted servers do not all speak the SDK's default base64.
 * With a meter, each HTTP request is reserved at its worst case first and settled to its usage;
 * the SDK does not retry, so every request sent is one the ledger knows.
 */
export function openAiEmbedder(s: EmbeddingsSettings, signal?: AbortSignal, meter?: RequestMeter): Embedder {
  // Self-hosted servers often take no key; the SDK insists on one.
  const client = new OpenAI({ apiKey: s.apiKey || "none", baseURL: s.baseURL, maxRetries: 0, timeout: s.timeoutMs });
  let attempt = 0;
  return {
    model: s.model,
    async embed(texts) {
      const tokensIn = texts.reduce((n, t) => n + maxTokens(t) + 8, 0);
      const worst: Spend = { tokensIn, tokensOut: 0, usd: costUsd(s.price, tokensIn, 0) };
      attempt += 1;
      const hold = await meter?.reserve({ purpose: "embeddings", modelId: s.model, attempt, worst });
      if (signal?.aborted) {
        await hold?.release("cancelled before sending");
        throw new Error("The embeddings request was cancelled");
      }
      let res: OpenAI.CreateEmbeddingResponse;
      try {
        res = await client.embeddings.create(
          { model: s.model, input: texts, encoding_format: "float" },
          signal ? { signal } : {},
        );
      } catch (err) {
        if (hold && err instanceof OpenAI.APIError && err.status !== undefined) {
          await hold.settle({ tokensIn: 0, tokensOut: 0, usd: 0, outcome: `status ${err.status}`, confirmed: true });
        } else if (hold) {
          const cost = failedCost(s.price, err, worst);
          await (cost === "not sent" ? hold.release("not sent: the endpoint could not be reached") : hold.settle(cost));
        }
        throw err;
      }
      if (hold) {
        const { note, ...cost } = answeredCost(
          s.price,
          { tokensIn: res.usage?.prompt_tokens ?? 0, tokensOut: 0 },
          worst,
        );
        await hold.settle({ ...cost, outcome: note ? `ok: ${note}` : "ok" });
      }
      const out = new Array<number[]>(texts.length);
      for (const d of res.data) out[d.index] = d.embedding;
      if (out.some((v) => !Array.isArray(v)))
        throw new Error(`the endpoint answered ${res.data.length} vectors for ${texts.length} texts`);
      return out;
    },
  };
}
