import { describe, expect, it } from "vitest";
import { LANGUAGES } from "./languages";
import { parseSource } from "./parse";

const pythonSpecs = LANGUAGES.python.specs;

/** `from a import (x,` then `blanks` spaces then `y)`: the blanks made the old import regex quadratic. */
const hostileImport = (blanks: number): string => `from a import (x,\n${" ".repeat(blanks)}y)`;

describe("python import specifiers", () => {
  it.each([
    ["from a import b", ["a", "a.b"]],
    ["from a.b import c, d as e", ["a.b", "a.b.c", "a.b.d"]],
    ["from . import x", [".", ".x"]],
    ["from ..pkg import (x as y,\n    z,\n)  ", ["..pkg", "..pkg.x", "..pkg.z"]],
    ["from a import (b)", ["a", "a.b"]],
    ["from a import *", ["a"]],
    ["from a import ", ["a"]],
    ["from a import(b)", []],
    ["import os, sys as system", ["os", "sys"]],
    ["import a.b.c", ["a.b.c"]],
  ])("reads %j as %j", (text, specs) => {
    expect(pythonSpecs(text)).toEqual(specs);
  });

  it("reads an import with 200,000 blanks before its last name at once (the old regex took over 30 s)", () => {
    const started = performance.now();
    const specs = pythonSpecs(hostileImport(200_000));
    const elapsed = performance.now() - started;
    expect(specs).toEqual(["a", "a.x", "a.y"]);
    expect(elapsed).toBeLessThan(500);
  });

  it("parses a file holding such an import at once, reading each import statement's first 10,000 characters", async () => {
    await parseSource("python", "import os\n"); // loads the grammar outside the timed part
    const text = `import os\n${hostileImport(200_000)}\nfrom b import c\n`;
    const started = performance.now();
    const parsed = await parseSource("python", text);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeLessThan(2_000);
    // `y` lies past the first 10,000 characters of its statement, so only `a.x` is read from it.
    expect(parsed?.imports).toEqual(["os", "a", "a.x", "b", "b.c"]);
  });
});
