import { describe, expect, it } from "vitest";
import { TestOutputParser } from "./parse";
import type { OutputStream } from "./sandbox";
import { runProcessGroup } from "./sandbox.process";

const LIMITS = { timeoutMs: 10_000, memoryBytes: 0, processes: 0, fileBytes: 0, outputBytes: 1 << 20 };

/** Runs `script` under /bin/sh as a plain process group, feeding a parser as the runner does. */
async function parsed(script: string) {
  const parser = new TestOutputParser();
  const chunks: { text: string; stream: OutputStream }[] = [];
  const r = await runProcessGroup(
    ["/bin/sh", "-c", script],
    {
      limits: LIMITS,
      onOutput: (text, stream) => {
        chunks.push({ text, stream });
        parser.feed(text, stream);
      },
    },
    { PATH: "/usr/bin:/bin" },
  );
  return { r, chunks, run: parser.finish() };
}

describe("a test command's output, read as it comes", () => {
  it("reads a result line on stderr whole, though stdout left a line unfinished", async () => {
    // jest writes results to stderr; a progress line on stdout without a newline must not swallow them.
    const { run } = await parsed(
      `printf 'PASS a.test.js\\n  ✓ adds (2 ms)\\n' >&2; sleep 0.2; printf 'loading...'; sleep 0.2; printf '  ✕ bug (3 ms)\\n' >&2; sleep 0.2; printf 'done\\n'`,
    );
    expect(run.results).toEqual({ adds: "pass", bug: "fail" });
  });

  it("decodes a character whose bytes arrive in two reads", async () => {
    // ✕ is E2 9C 95: the first byte alone, then the rest a moment later.
    const { chunks, run } = await parsed(`printf '  \\342' >&2; sleep 0.3; printf '\\234\\225 bug (3 ms)\\n' >&2`);
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.map((c) => c.text).join("")).toBe("  ✕ bug (3 ms)\n");
    expect(chunks.every((c) => c.stream === "stderr")).toBe(true);
    expect(run.results).toEqual({ bug: "fail" });
  });
});

describe("the parser against hostile output", () => {
  it("keeps the worst outcome of a test named twice: a later pass does not hide a failure", () => {
    const p = new TestOutputParser();
    p.feed("FAIL a.test.js\n  ✕ works (1 ms)\nPASS b.test.js\n  ✓ works (1 ms)\n  ✓ other (1 ms)\n");
    expect(p.finish().results).toEqual({ works: "fail", other: "pass" });
  });

  it("drops a line longer than any runner prints without holding it, and reads the lines after it", () => {
    const p = new TestOutputParser();
    p.feed("ok 1 - before\n");
    // 256 MiB with no newline, in 1 MiB reads: held whole and rescanned per read, this took minutes.
    const mib = "y".repeat(1 << 20);
    for (let i = 0; i < 256; i++) p.feed(mib);
    p.feed("\nok 2 - after\n");
    expect(p.finish().results).toEqual({ before: "pass", after: "pass" });
  });

  it("still reads a long JSON report line (jest --json) whole", () => {
    const report = JSON.stringify({
      numTotalTests: 1,
      testResults: [{ name: "a.test.js", assertionResults: [{ fullName: "adds", status: "passed" }] }],
      padding: "x".repeat(100_000),
    });
    const p = new TestOutputParser();
    for (let i = 0; i < report.length; i += 4096) p.feed(report.slice(i, i + 4096));
    p.feed("\n");
    expect(p.finish().results).toEqual({ "a.test.js > adds": "pass" });
  });
});
