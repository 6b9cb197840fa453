import crypto from "node:crypto";
import { asRecord, estimateTokens, type WireResponse } from "./wire";

/** Dimensions of the stand-in's vectors. */
export const SANDBOX_EMBEDDING_DIMS = 256;

export interface EmbeddingsRequest {
  model: string;
  inputs: string[];
  encoding: "float" | "base64";
  dimensions?: number;
}

/** Parses a `POST /v1/embeddings` body; a string is the 400 message for a bad one. */
export function parseEmbeddingsRequest(body: unknown): EmbeddingsRequest | string {
  const b = asRecord(body);
  if (!b) return "We could not parse the JSON body of your request.";
  if (typeof b.model !== "string" || !b.model) return "you must provide a model parameter";
  const inputs = typeof b.input === "string" ? [b.input] : b.input;
  if (!Array.isArray(inputs) || inputs.length === 0 || !inputs.every((s) => typeof s === "string" && s.length > 0))
    return "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.";
  if (inputs.length > 2048) return "'$.input' is too long. Maximum length is 2048, but got " + inputs.length + ".";
  const encoding = b.encoding_format ?? "float";
  if (encoding !== "float" && encoding !== "base64") return "'encoding_format' must be one of 'float' or 'base64'";
  const dims = b.dimensions;
  if (
    dims !== undefined &&
    (typeof dims !== "number" || !Number.isInteger(dims) || dims < 1 || dims > SANDBOX_EMBEDDING_DIMS)
  )
    return `'dimensions' must be an integer between 1 and ${SANDBOX_EMBEDDING_DIMS}`;
  return {
    model: b.model,
    inputs: inputs as string[],
    encoding,
    ...(typeof dims === "number" ? { dimensions: dims } : {}),
  };
}

/** Lower-case word tokens, identifiers split at camelCase and snake_case boundaries. */
function tokens(text: string): string[] {
  const out: string[] = [];
  for (const word of text.match(/[A-Za-z][A-Za-z0-9]*/g) ?? []) {
    const parts = word.split(/(?<=[a-z0-9])(?=[A-Z])/);
    for (const p of parts.length > 1 ? [...parts, word] : parts) if (p.length > 1) out.push(p.toLowerCase());
  }
  return out;
}

/**
 * A deterministic stand-in for a text embedding: a hashed bag of tokens (each token adds ±1 to
 * one of `dims` buckets, sign and bucket from its SHA-1), L2-normalised. Texts sharing words
 * get a positive cosine similarity; the same text always gets the same vector.
 */
export function sandboxEmbedding(text: string, dims = SANDBOX_EMBEDDING_DIMS): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const t of tokens(text)) {
    const h = crypto.createHash("sha1").update(t).digest();
    const i = h.readUInt32LE(0) % dims;
    v[i] = (v[i] ?? 0) + ((h[4] ?? 0) & 1 ? 1 : -1);
  }
  const norm = Math.hypot(...v);
  return norm === 0 ? v : v.map((x) => x / norm);
}

const base64 = (v: number[]): string => Buffer.from(new Float32Array(v).buffer).toString("base64");

/** The OpenAI embeddings response: a list of `embedding` objects, floats or base64 little-endian float32. */
export function embeddingsResponse(req: EmbeddingsRequest): WireResponse {
  const data = req.inputs.map((text, index) => {
    const vector = sandboxEmbedding(text, req.dimensions);
    return { object: "embedding", index, embedding: req.encoding === "base64" ? base64(vector) : vector };
  });
  const tokens = req.inputs.reduce((n, s) => n + estimateTokens(s), 0);
  return {
    status: 200,
    headers: {},
    body: { object: "list", data, model: req.model, usage: { prompt_tokens: tokens, total_tokens: tokens } },
  };
}
