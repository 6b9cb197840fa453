import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LocalizeCache } from "./cache";
import { buildCorpus } from "./corpus";
import { filesFromDirectory, type RepoFile } from "./files";
import { parseSource, parseSources } from "./parse";
import { fileSymbols, filesSymbols } from "./symbols";
import type { Doc } from "./rank";
import { LocalizeThreads, setLocalizeThreads, useLocalizeThreads } from "./threads";

const require = createRequire(import.meta.url);
const file = (path: string, text: string): RepoFile => ({ path, size: text.length, read: async () => text });

const py = (i: number): string =>
  `from .models_${i % 7} import Widget${i}, helper\nimport os, sys as system\n\n\n` +
  `class Widget${i}Admin(BaseAdmin):\n    def render_${i}(self, request):\n        return helper(request)\n\n\n` +
  `def parse_${i}(value):\n    # an overly_long_identifier_${"x".repeat(70)} is skipped\n    return value.strip()  # ÜNÏCÖDE café\n\n` +
  `MAX_${i} = ${i}\n`;
const ts = `import { a } from "./a";\nexport function run(): void {}\nexport class Runner {}\nconst x = require("./b");\n`;

afterAll(() => setLocalizeThreads(2));

describe("localize threads", () => {
  it("parse on threads exactly as in-process, for several languages and a broken file", async () => {
    setLocalizeThreads(2);
    const items = [
      { id: "python" as const, text: py(1) },
      { id: "typescript" as const, text: ts },
      { id: "python" as const, text: "def broken(:\n  pass\n" },
      { id: "python" as const, text: py(2) },
    ];
    const threaded = await parseSources(items);
    const inProcess = await Promise.all(items.map((i) => parseSource(i.id, i.text)));
    expect(threaded).toEqual(inProcess);
    expect(threaded[0]?.defs).toEqual(expect.arrayContaining(["Widget1Admin", "render_1", "parse_1", "MAX_1"]));
    expect(threaded[1]?.imports).toEqual(["./a", "./b"]);
  });

  it("find declarations on threads exactly as in-process", async () => {
    setLocalizeThreads(2);
    const files = [
      {
        path: "pkg/reader.py",
        text: `@cached\ndef parse(line,\n          strict=False):\n    return line\n\n\nclass Reader(Base):\n    def read(self):\n        return 1\n`,
      },
      { path: "src/run.ts", text: `${ts}export class Pool {\n  take(): number {\n    return 1;\n  }\n}\n` },
      {
        path: "main.go",
        text: "package main\n\ntype Server struct{}\n\nfunc (s *Server) Start() {\n}\n\nfunc main() {\n}\n",
      },
      { path: "App.java", text: "class App {\n  App() {}\n  void run() {\n  }\n}\n" },
      { path: "README.md", text: "# not code\n" },
    ];
    const threaded = await filesSymbols(files);
    const inProcess = await Promise.all(files.map((f) => fileSymbols(f.path, f.text)));
    expect(threaded).toEqual(inProcess);
    expect(threaded[0]?.map((s) => [s.name, s.startLine, s.headerEnd])).toEqual([
      ["parse", 1, 3],
      ["Reader", 7, 7],
      ["Reader.read", 8, 8],
    ]);
    expect(threaded[2]?.map((s) => s.name)).toEqual(["Server", "Start", "main"]);
  });

  it("index a corpus on threads with the same statistics as in-process", async () => {
    const files = Array.from({ length: 260 }, (_, i) => file(`pkg/mod_${i}.py`, py(i)));
    const aloneCache = new LocalizeCache();
    setLocalizeThreads(0);
    const alone = await buildCorpus(files, aloneCache);
    setLocalizeThreads(2);
    const cache = new LocalizeCache();
    const threaded = await buildCorpus(files, cache);
    expect(threaded.keys).toEqual(alone.keys);
    expect(threaded.docs).toHaveLength(260);
    threaded.docs.forEach((d, i) => expect(named(cache, d)).toEqual(named(aloneCache, alone.docs[i])));
    expect(named(cache, threaded.docs[3])).toMatchObject({
      defs: expect.arrayContaining(["widget3admin", "render_3"]),
    });
  });

  it("index local files read on the threads with the same statistics as in-process", async () => {
    const dir = await mkdtemp(join(tmpdir(), "loc-threads-"));
    try {
      await Promise.all(Array.from({ length: 230 }, (_, i) => writeFile(join(dir, `mod_${i}.py`), py(i))));
      await writeFile(join(dir, "blob.py"), "x = 1\u0000\n");
      await writeFile(join(dir, "gone.py"), "y = 2\n");
      const files = await filesFromDirectory(dir);
      await rm(join(dir, "gone.py"));
      expect(files.every((f) => f.local?.startsWith(dir))).toBe(true);
      setLocalizeThreads(0);
      const aloneCache = new LocalizeCache();
      const alone = await buildCorpus(files, aloneCache);
      expect(alone.docs).toHaveLength(230);
      expect(alone.skipped).toBe(2);
      const indexed = async (threads: LocalizeThreads): Promise<void> => {
        useLocalizeThreads(threads);
        const cache = new LocalizeCache();
        const corpus = await buildCorpus(files, cache);
        expect(corpus.keys).toEqual(alone.keys);
        expect(corpus.skipped).toBe(2);
        corpus.docs.forEach((d, i) => expect(named(cache, d)).toEqual(named(aloneCache, alone.docs[i])));
      };
      await indexed(new LocalizeThreads(2, require.resolve("web-tree-sitter")));
      // A thread that dies: the files are read and indexed in-process.
      await indexed(new LocalizeThreads(2, "/nonexistent/web-tree-sitter.cjs"));
      // A cache keeping a few terms: the same on threads as in-process, lengths those of all terms.
      const terms = new Set(["widget3admin", "render_3", "helper", "models", "strip", "max_3", "system"]);
      const kept = async (threads: number): Promise<{ cache: LocalizeCache; docs: Doc[] }> => {
        setLocalizeThreads(threads);
        const cache = new LocalizeCache({ terms });
        return { cache, docs: (await buildCorpus(files, cache)).docs };
      };
      const [here, there] = [await kept(0), await kept(2)];
      expect(there.docs.map((d) => named(there.cache, d))).toEqual(here.docs.map((d) => named(here.cache, d)));
      expect(here.docs.map((d) => d.stats.length)).toEqual(alone.docs.map((d) => d.stats.length));
      const mod3 = here.docs.find((d) => d.path === "mod_3.py");
      expect(named(here.cache, mod3)).toMatchObject({
        defs: ["widget3admin", "render_3"],
        terms: { helper: 2, render_3: 1 },
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("work on a thread that dies fails, and the corpus is then indexed in-process", async () => {
    const broken = new LocalizeThreads(2, "/nonexistent/web-tree-sitter.cjs");
    await expect(broken.scan(["abc"])).rejects.toThrow();
    const files = Array.from({ length: 210 }, (_, i) => file(`m${i}.py`, py(i)));
    useLocalizeThreads(broken);
    const cache = new LocalizeCache();
    const corpus = await buildCorpus(files, cache);
    setLocalizeThreads(0);
    const aloneCache = new LocalizeCache();
    const alone = await buildCorpus(files, aloneCache);
    expect(corpus.docs).toHaveLength(210);
    corpus.docs.forEach((d, i) => expect(named(cache, d)).toEqual(named(aloneCache, alone.docs[i])));

    // Parses and declarations whose thread fails are done in-process too.
    useLocalizeThreads(broken);
    const items = [
      { id: "python" as const, text: py(1) },
      { id: "typescript" as const, text: ts },
    ];
    const parsed = await parseSources(items);
    const symbols = await filesSymbols(
      items.map((it, k) => ({ path: `f${k}.${it.id === "python" ? "py" : "ts"}`, text: it.text })),
    );
    setLocalizeThreads(0);
    expect(parsed).toEqual(await Promise.all(items.map((i) => parseSource(i.id, i.text))));
    expect(parsed[0]?.defs).toContain("Widget1Admin");
    expect(symbols.map((f) => f.map((s) => s.name))).toEqual([
      ["Widget1Admin", "Widget1Admin.render_1", "parse_1"],
      ["run", "Runner"],
    ]);
  });
});

/** A document's statistics by term name (term ids depend on the order words are first met). */
function named(cache: LocalizeCache, doc: Doc | undefined): unknown {
  if (!doc) return undefined;
  return {
    length: doc.stats.length,
    terms: Object.fromEntries([...doc.stats.terms].map((id, k) => [cache.termName(id), doc.stats.counts[k]])),
    defs: [...doc.stats.defs].map((id) => cache.termName(id)),
  };
}
