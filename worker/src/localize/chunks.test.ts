import { describe, expect, it } from "vitest";
import { LocalizeCache } from "./cache";
import { chunkSignals, splitChunks } from "./chunks";
import { buildCorpus } from "./corpus";
import type { RepoFile } from "./files";
import { forEachTerm } from "./tokenize";

const file = (path: string, text: string): RepoFile => ({ path, size: text.length, read: async () => text });

describe("splitChunks", () => {
  it("cuts at definitions in python, go and ts, and windows long bodies", () => {
    const py =
      "import os\n\n\nclass A:\n    def one(self):\n        return 1\n\n    def two(self):\n        return 2\n";
    expect(splitChunks(py).map((c) => c.line)).toEqual([1, 5]);
    const go = 'package x\n\nimport "fmt"\n\nfunc A() {\n\tfmt.Println(1)\n}\n\nfunc B() {\n}\n';
    expect(splitChunks(go).map((c) => c.line)).toEqual([1, 5, 9]);
    const ts = "// header\n\n\n\nexport function a() {\n  return 1;\n}\n";
    expect(splitChunks(ts).map((c) => c.line)).toEqual([1, 5]);
    const long = Array.from({ length: 300 }, (_, i) => `x = ${i}`).join("\n");
    expect(splitChunks(long).map((c) => c.line)).toEqual([1, 121, 241]);
  });
});

describe("chunkSignals", () => {
  it("prefers the file with one function matching the issue over scattered matches, and caches its chunks", async () => {
    const scattered = Array.from(
      { length: 12 },
      (_, i) =>
        `def helper_${i}(x):\n    # ${["timezone", "offset", "parse", "naive"][i % 4]} handling\n    return x\n\n\n`,
    ).join("");
    const focused =
      "import re\n\n\n\ndef other():\n    return 0\n\n\ndef parse_offset(value):\n" +
      "    # parse a timezone offset; naive values have none\n    return value\n";
    let reads = 0;
    const files = [
      { ...file("pkg/scattered.py", scattered), read: async () => (reads++, scattered) },
      { ...file("pkg/focused.py", focused), read: async () => (reads++, focused) },
      file("pkg/unrelated.py", "def unrelated():\n    return None\n"),
    ];
    const cache = new LocalizeCache();
    const corpus = await buildCorpus(files, cache);
    const query = new Map<number, number>();
    forEachTerm("parse timezone offset of naive values", (t) => {
      const id = cache.termId(t);
      if (id !== undefined) query.set(id, 1);
    });
    const idf = new Map([...query.keys()].map((id) => [id, 1]));
    const all = [0, 1, 2];
    const first = await chunkSignals(corpus, cache, all, query, new Map(), idf);
    const focusedIx = corpus.byPath.get("pkg/focused.py") ?? -1;
    const scatteredIx = corpus.byPath.get("pkg/scattered.py") ?? -1;
    expect(first.issue[focusedIx]).toBe(1);
    expect(first.issue[scatteredIx]).toBeLessThan(0.6);
    expect(first.bestLine.get(focusedIx)).toBe(9);
    const before = reads;
    const again = await chunkSignals(corpus, cache, all, query, new Map(), idf);
    expect(reads).toBe(before);
    expect([...again.issue]).toEqual([...first.issue]);
  });
});
