import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SANDBOX_EMBEDDING_DIMS, SANDBOX_MODEL_API_KEY, startModelSandbox, type ModelSandbox } from "./index";

let sandbox: ModelSandbox;
beforeAll(async () => {
  sandbox = await startModelSandbox();
});
afterAll(() => sandbox.stop());
beforeEach(() => sandbox.control.reset());

const embed = (body: unknown, key: string | null = SANDBOX_MODEL_API_KEY) =>
  fetch(`${sandbox.url}/openai/v1/embeddings`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify(body),
  });

interface EmbeddingList {
  object: string;
  model: string;
  data: { object: string; index: number; embedding: number[] | string }[];
  usage: { prompt_tokens: number; total_tokens: number };
}

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);

describe("the model stand-in's /v1/embeddings", () => {
  it("answers in the OpenAI list format with normalised, deterministic vectors, and counts each request", async () => {
    const input = ["trailing spaces ignores trailing tabs", "trailingSpaces rule: tabs", "line length limit"];
    const res = await embed({ model: "text-embedding-3-small", input, encoding_format: "float" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as EmbeddingList;
    expect(body).toMatchObject({ object: "list", model: "text-embedding-3-small" });
    expect(body.data.map((d) => [d.object, d.index])).toEqual([
      ["embedding", 0],
      ["embedding", 1],
      ["embedding", 2],
    ]);
    expect(body.usage.total_tokens).toBeGreaterThan(0);
    const [a, b, c] = body.data.map((d) => d.embedding as number[]);
    expect(a).toHaveLength(SANDBOX_EMBEDDING_DIMS);
    expect(cosine(a ?? [], a ?? [])).toBeCloseTo(1, 6);
    expect(cosine(a ?? [], b ?? [])).toBeGreaterThan(cosine(a ?? [], c ?? []));
    const again = (await (await embed({ model: "m", input: input[0] })).json()) as EmbeddingList;
    expect(again.data[0]?.embedding).toEqual(a);
    expect(sandbox.control.embeddingRequests.map((r) => r.inputs.length)).toEqual([3, 1]);
    expect(sandbox.control.requests).toHaveLength(0);
  });

  it("encodes base64 little-endian float32 when asked, as the OpenAI SDK does by default", async () => {
    const float = (await (await embed({ model: "m", input: "tabs" })).json()) as EmbeddingList;
    const b64 = (await (await embed({ model: "m", input: "tabs", encoding_format: "base64" })).json()) as EmbeddingList;
    const buf = Buffer.from(b64.data[0]?.embedding as string, "base64");
    const decoded = Array.from(new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4));
    expect(decoded).toHaveLength(SANDBOX_EMBEDDING_DIMS);
    decoded.forEach((v, i) => expect(v).toBeCloseTo((float.data[0]?.embedding as number[])[i] ?? NaN, 6));
  });

  it("refuses a wrong key, a bad input and answers scripted faults in the OpenAI error format", async () => {
    expect((await embed({ model: "m", input: "x" }, "wrong")).status).toBe(401);
    const bad = await embed({ model: "m", input: [] });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
    sandbox.control.failEmbeddingsNext({ status: 500 });
    expect((await embed({ model: "m", input: "x" })).status).toBe(500);
    expect((await embed({ model: "m", input: "x" })).status).toBe(200);
  });
});
