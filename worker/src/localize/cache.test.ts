import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bm25Baseline } from "./baseline";
import { type FileStats, LocalizeCache } from "./cache";
import { buildCorpus } from "./corpus";
import { filesFromDirectory, looksBinary, looksBinaryBytes } from "./files";
import { issueTerms, localize } from "./localize";

/** A file's statistics as names (term ids differ from one cache to another). */
const named = (cache: LocalizeCache, s: FileStats) => ({
  length: s.length,
  counts: Object.fromEntries([...s.terms].map((id, k) => [cache.termName(id), s.counts[k]])),
  defs: [...s.defs].map((id) => cache.termName(id)).sort(),
});

const TEXTS = [
  "class RidgeClassifierCV(Base):\n    def fit_transform(self, X):\n        return X  # über-naïve\n",
  "ﬁrst «déf» fn naïve_thing() { return parse_HTTPServer2(x) }\nstruct Größe; interface IFoo {}",
  `${"a".repeat(65)} def keep_me ${"b".repeat(64)} class 𝒳 Then_Class9 \u00a0 tail`,
  "\uFEFFdef after_bom(): pass\r\nclass\tTabbed:\n  x_y_z = 1 # 日本語 def 名前\n",
];

describe("LocalizeCache.statsOf", () => {
  it("gives the same statistics for a text and for its UTF-8 bytes, whatever was seen before", () => {
    const fromText = new LocalizeCache();
    const fromBytes = new LocalizeCache();
    const mixed = new LocalizeCache();
    for (const text of [...TEXTS, ...TEXTS]) {
      const bytes = Buffer.from(text, "utf8");
      const expected = named(fromText, fromText.statsOf(text));
      expect(named(fromBytes, fromBytes.statsOf(bytes))).toEqual(expected);
      expect(named(mixed, mixed.statsOf(text.length % 2 ? bytes : text))).toEqual(expected);
    }
    const defs = named(fromBytes, fromBytes.statsOf(Buffer.from(TEXTS[0] ?? ""))).defs;
    expect(defs).toEqual(["fit_transform", "ridgeclassifiercv"]);
  });

  it("reads invalid UTF-8 the way the decoded text reads", () => {
    const bytes = Buffer.from([0x64, 0x65, 0x66, 0x20, 0xe2, 0x82, 0x61, 0x62, 0xff, 0x63, 0x5f, 0x64, 0x0a]);
    const a = new LocalizeCache();
    const b = new LocalizeCache();
    expect(named(b, b.statsOf(bytes))).toEqual(named(a, a.statsOf(bytes.toString("utf8"))));
  });
});

describe("looksBinaryBytes", () => {
  it("agrees with looksBinary on the decoded text, also when multi-byte characters move the NUL", () => {
    const cases = [
      "plain text",
      "nul\u0000early",
      `${"x".repeat(8191)}\u0000`,
      `${"x".repeat(8192)}\u0000`,
      `${"é".repeat(5000)}\u0000`,
      `${"é".repeat(9000)}\u0000`,
      `${"日".repeat(8191)}\u0000`,
      `${"日".repeat(8192)}\u0000`,
      `${"𝒳".repeat(4095)}\u0000`,
      `${"𝒳".repeat(4096)}\u0000`,
      `\uFEFF${"x".repeat(8190)}\u0000`,
    ];
    for (const text of cases) expect(looksBinaryBytes(Buffer.from(text, "utf8"))).toBe(looksBinary(text));
    // Invalid sequences decode to one U+FFFD per maximal subpart.
    const bad = Buffer.concat([Buffer.alloc(4000, 0xff), Buffer.from([0xe2, 0x82]), Buffer.alloc(4000, 0x41)]);
    for (const tail of [Buffer.from([0]), Buffer.alloc(200, 0x41)]) {
      const bytes = Buffer.concat([bad, Buffer.alloc(190, 0x41), tail]);
      expect(looksBinaryBytes(bytes)).toBe(looksBinary(bytes.toString("utf8")));
    }
  });
});

describe("buildCorpus over a directory", () => {
  const dir = mkdtempSync(join(tmpdir(), "localize-bytes-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("indexes local files from their bytes as it indexes their texts", async () => {
    TEXTS.forEach((text, i) => writeFileSync(join(dir, `f${i}.py`), text));
    writeFileSync(join(dir, "blob.txt"), Buffer.from([0x61, 0, 0x62]));
    // Larger than the read buffer's first size (1 MiB): it grows, and the next file reads right.
    writeFileSync(join(dir, "f1_big.py"), `${TEXTS[1]}\n`.repeat(Math.ceil((5 << 19) / (TEXTS[1]?.length ?? 1))));
    const files = await filesFromDirectory(dir, { maxBytes: 4 << 20 });
    const byBytes = new LocalizeCache();
    const corpus = await buildCorpus(files, byBytes);
    // The same files given as texts only (no local path): read and decoded, then tokenized.
    const asText = new LocalizeCache();
    const texts = await buildCorpus(
      files.map(({ path, size, read, key }) => ({ path, size, read, ...(key ? { key } : {}) })),
      asText,
    );
    expect(corpus.docs.map((d) => d.path)).toEqual(["f0.py", "f1.py", "f1_big.py", "f2.py", "f3.py"]);
    expect(corpus.docs[2]?.stats.length).toBeGreaterThan(100_000);
    expect(corpus.docs.map((d) => named(byBytes, d.stats))).toEqual(texts.docs.map((d) => named(asText, d.stats)));
    expect(corpus.skipped).toBe(1);
  });
});

describe("a cache keeping one issue's terms", () => {
  it("keeps those terms' counts and definitions, counts every term in lengths, and refuses other terms", () => {
    const terms = new Set(["fit_transform", "ridge", "x", "tabbed", "after_bom"]);
    const full = new LocalizeCache();
    const kept = new LocalizeCache({ terms });
    for (const text of TEXTS) {
      const all = named(full, full.statsOf(text));
      const some = named(kept, kept.statsOf(Buffer.from(text)));
      expect(some.length).toBe(all.length);
      expect(some.counts).toEqual(Object.fromEntries(Object.entries(all.counts).filter(([t]) => terms.has(t))));
      expect(some.defs).toEqual(all.defs.filter((t) => t !== undefined && terms.has(t)));
    }
    for (const t of terms) expect(kept.termId(t) !== undefined, t).toBe(full.termId(t) !== undefined);
    expect(kept.termId("after_bom")).toBeDefined();
    expect(() => kept.termId("classifier")).toThrow(/outside its terms/);
  });

  it("ranks exactly as a full cache does, with the same scores and reasons", async () => {
    const files = await filesFromDirectory(new URL(".", import.meta.url).pathname);
    const issueTitle = "Localization ranks the wrong files when the word table grows past its capacity";
    const issueBody =
      "After `WordTable.lookupBytes` rehashes, `LocalizeCache.statsOf` gives other counts for `termFrequency`;" +
      " see cache.ts and word-table.ts. `bm25Scores` then ranks README first.";
    const top = 20;
    const full = await localize({ files, issueTitle, issueBody, top, cache: new LocalizeCache() });
    const cache = new LocalizeCache({ terms: issueTerms(issueTitle, issueBody) });
    const kept = await localize({ files, issueTitle, issueBody, top, cache });
    expect(kept.files.length).toBe(top);
    expect(kept.files).toEqual(full.files);
    const input = { files, issueTitle, issueBody, top };
    const baseline = await bm25Baseline({ ...input, cache: new LocalizeCache() });
    const terms = issueTerms(issueTitle, issueBody);
    expect(await bm25Baseline({ ...input, cache: new LocalizeCache({ terms }) })).toEqual(baseline);
  });
});
