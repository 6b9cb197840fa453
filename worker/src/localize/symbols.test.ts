import { describe, expect, it } from "vitest";
import { parseIssue } from "./mentions";
import { skeleton } from "./skeleton";
import { fileSymbols } from "./symbols";
import { rankSymbols, stackFrames } from "./symbols.rank";

const PY = `import os
from .base import Base

LIMIT = 10


@cached
def parse_header(line,
                 strict=False):
    key, _, value = line.partition(":")
    return key.strip(), value.strip()


class Reader(Base):
    """Reads records."""

    encoding = "utf-8"

    def read(self, path):
        with open(path) as f:
            return [parse_header(l) for l in f]

    def close(self):
        self.closed = True
`;

const TS = `import { z } from "zod";

export interface Options {
  retries: number;
}

export function backoff(attempt: number): number {
  const base = 100;
  return base * 2 ** attempt;
}

export class Client {
  constructor(private readonly opts: Options) {}

  async send(body: string): Promise<void> {
    for (let i = 0; i < this.opts.retries; i++) {
      await fetch("/x", { method: "POST", body });
    }
  }
}

export const retryDelay = (attempt: number) => {
  return backoff(attempt) + 1;
};
`;

const indexOf = (symbols: { name: string }[], name: string): number => symbols.findIndex((s) => s.name === name);

describe("file symbols", () => {
  it("finds python functions, classes and methods with their spans and headers", async () => {
    const symbols = await fileSymbols("pkg/reader.py", PY);
    expect(symbols.map((s) => [s.name, s.kind, s.startLine, s.headerEnd, s.endLine])).toEqual([
      ["parse_header", "function", 7, 9, 11],
      ["Reader", "class", 14, 14, 24],
      ["Reader.read", "method", 19, 19, 21],
      ["Reader.close", "method", 23, 23, 24],
    ]);
  });

  it("finds typescript functions, arrow functions, classes and interfaces", async () => {
    const symbols = await fileSymbols("src/client.ts", TS);
    expect(symbols.map((s) => [s.name, s.kind, s.startLine, s.endLine])).toEqual([
      ["Options", "type", 3, 5],
      ["backoff", "function", 7, 10],
      ["Client", "class", 12, 20],
      ["Client.constructor", "method", 13, 13],
      ["Client.send", "method", 15, 19],
      ["retryDelay", "function", 22, 24],
    ]);
  });
});

describe("skeleton", () => {
  it("shows a kept python method in full and the rest as signatures with elided bodies", async () => {
    const symbols = await fileSymbols("pkg/reader.py", PY);
    const view = skeleton(PY, symbols, new Set([indexOf(symbols, "Reader.read")]));
    expect(view).toBe(
      [
        " 1 | import os",
        " 2 | from .base import Base",
        " 3 | ",
        " 4 | LIMIT = 10",
        " 5 | ",
        " 6 | ",
        " 7 | @cached",
        " 8 | def parse_header(line,",
        " 9 |                  strict=False):",
        "   |     … lines 10-11",
        "12 | ",
        "13 | ",
        "14 | class Reader(Base):",
        "   |     … lines 15-18",
        "19 |     def read(self, path):",
        "20 |         with open(path) as f:",
        "21 |             return [parse_header(l) for l in f]",
        "22 | ",
        "23 |     def close(self):",
        "24 |         self.closed = True",
        "25 | ",
      ].join("\n"),
    );
  });

  it("shows a kept typescript function in full, other bodies elided, line numbers of the real file", async () => {
    const symbols = await fileSymbols("src/client.ts", TS);
    const view = skeleton(TS, symbols, new Set([indexOf(symbols, "backoff")]));
    const lines = view.split("\n");
    expect(lines).toContain(" 8 |   const base = 100;");
    expect(lines).toContain("15 |   async send(body: string): Promise<void> {");
    expect(lines).not.toContain('17 |       await fetch("/x", { method: "POST", body });');
    expect(lines).toContain("22 | export const retryDelay = (attempt: number) => {");
    expect(lines.filter((l) => l.includes("…")).map((l) => l.trim())).toEqual(["|     … lines 16-18"]);
  });

  it("keeps a whole class when the class itself is kept", async () => {
    const symbols = await fileSymbols("pkg/reader.py", PY);
    const view = skeleton(PY, symbols, new Set([indexOf(symbols, "Reader")]));
    expect(view).toContain("24 |         self.closed = True");
    expect(view).toContain('17 |     encoding = "utf-8"');
    expect(view).toContain("|     … lines 10-11");
  });
});

describe("symbol ranking", () => {
  it("ranks the symbol named in the issue first, with its reasons", async () => {
    const symbols = await fileSymbols("pkg/reader.py", PY);
    const issue = parseIssue("parse_header drops the value after a second colon", "`parse_header('a: b: c')` gives b");
    const ranked = rankSymbols("pkg/reader.py", PY, symbols, issue, []);
    expect(ranked[0]?.name).toBe("parse_header");
    expect(ranked[0]?.reasons).toContain("defines parse_header, named in the issue");
  });

  it("puts the function a stack frame points into first", async () => {
    const symbols = await fileSymbols("pkg/reader.py", PY);
    const text = `Closing fails\nTraceback (most recent call last):\n  File "/usr/lib/python3/site-packages/pkg/reader.py", line 24, in close\nAttributeError`;
    const ranked = rankSymbols("pkg/reader.py", PY, symbols, parseIssue("Closing fails", text), stackFrames(text));
    expect(ranked[0]?.name).toBe("Reader.close");
    expect(ranked[0]?.reasons).toContain("stack trace line 24");
  });
});
