import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findChunkVectors, saveChunkVectors } from "@fixloop/db";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { createTestDatabase } from "@fixloop/testkit";
import { openAiEmbedder } from "../models/embeddings.client";
import { chunkFile, CHUNKER } from "./embed-chunks";
import { embeddingRerank, type RerankCandidate } from "./embed-rerank";

let models: ModelSandbox;
beforeAll(async () => {
  models = await startModelSandbox();
});
afterAll(() => models.stop());

const fn = (name: string, lines: number) =>
  [`function ${name}() {`, ...Array.from({ length: lines - 2 }, (_, i) => `  step${i}();`), "}"].join("\n");

describe("chunking a file for embedding", () => {
  it("cuts at top-level definitions, never past 60 lines, each chunk led by the path", () => {
    const content = [fn("alpha", 20), fn("beta", 20), fn("gamma", 150)].join("\n");
    const chunks = chunkFile("src/a.js", content);
    expect(chunks.map((c) => [c.startLine, c.endLine])).toEqual([
      [1, 20],
      [21, 40],
      [41, 100],
      [101, 160],
      [161, 190],
    ]);
    expect(chunks.every((c) => c.text.startsWith("src/a.js\n"))).toBe(true);
    expect(chunkFile("empty.js", "\n\n")).toEqual([]);
  });
});

describe("the embedding rerank", () => {
  it("moves the file closest to the issue up, but never moves a file named in the issue down", async () => {
    const { db } = await createTestDatabase();
    const key = { repository: "o/r", chunker: CHUNKER, model: "m" };
    const file = (path: string, score: number, text: string): RerankCandidate => ({
      path,
      score,
      reasons: [],
      blobSha: `sha-${path}`,
      read: async () => text,
    });
    const candidates = [
      file("src/config.js", 1, "export const defaults = { width: 80 };"),
      file("src/report.js", 0.9, "export function report(problem) { console.log(problem); }"),
      file(
        "src/tabs.js",
        0.8,
        "// trailing tabs and trailing spaces at the end of a line\nconst TRAILING = /[ \\t]+$/;",
      ),
    ];
    const embedder = openAiEmbedder({
      baseURL: models.compatibleBaseURL,
      model: "m",
      apiKey: "",
      timeoutMs: 5000,
      price: { inputUsdPerMTok: 0, outputUsdPerMTok: 0 },
    });
    const run = (title: string, body: string) =>
      embeddingRerank({
        candidates,
        issueTitle: title,
        issueBody: body,
        allPaths: candidates.map((c) => c.path),
        embedder,
        store: { find: (s) => findChunkVectors(db, key, s), save: (c) => saveChunkVectors(db, key, c) },
      });
    const plain = await run("trailing tabs are not reported", "A line ending in trailing tabs passes.");
    expect(plain.files.map((f) => f.path)).toEqual(["src/tabs.js", "src/config.js", "src/report.js"]);
    expect(plain.stats).toMatchObject({ files: 3, chunksEmbedded: 3, chunksCached: 0, requests: 2 });

    const named = await run("trailing tabs are not reported", "Maybe `src/config.js` has the wrong default.");
    expect(named.files[0]?.path).toBe("src/config.js");
    expect(named.stats).toMatchObject({ chunksEmbedded: 0, chunksCached: 3, requests: 1 });
  });
});
