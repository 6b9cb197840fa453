import { describe, expect, it } from "vitest";
import { applyGeneratedFiles } from "./apply-edits";
import { fileView } from "./file-view";

const body = (n: number) => Array.from({ length: n }, (_, i) => `    total += ${i}`).join("\n");
const SOURCE = `def small():\n    return 1\n\n\ndef target(x):\n${body(40)}\n    return total\n\n\ndef other():\n${body(40)}\n    return 0\n`;

describe("file view", () => {
  it("shows a file over the budget as a skeleton with the kept symbol in full", async () => {
    const view = await fileView("pkg/mod.py", SOURCE, 400, ["target"]);
    expect(view.partial).toBe(true);
    expect(view.text).toContain(" 5 | def target(x):");
    expect(view.text).toContain("46 |     return total");
    expect(view.text).toMatch(/\| +… lines 50-90/);
  });

  it("shows a file within the budget whole", async () => {
    const view = await fileView("pkg/mod.py", SOURCE, 100_000);
    expect(view.partial).toBe(false);
    expect(view.text.split("\n")).toHaveLength(SOURCE.split("\n").length);
  });

  it("applies edits copied from a skeleton to the real file, and refuses to rewrite it whole", () => {
    const originals = new Map([["pkg/mod.py", SOURCE]]);
    const partial = new Set(["pkg/mod.py"]);
    const edit = applyGeneratedFiles(
      [
        {
          filename: "pkg/mod.py",
          action: "modify",
          edits: [{ search: "    return total", replace: "    return -total" }],
        },
      ],
      originals,
      partial,
    );
    expect(edit.failures).toEqual([]);
    expect(edit.changes[0]?.content).toBe(SOURCE.replace("    return total", "    return -total"));
    const rewrite = applyGeneratedFiles(
      [{ filename: "pkg/mod.py", action: "modify", edits: [], content: "def target(x):\n    return 0\n" }],
      originals,
      partial,
    );
    expect(rewrite.changes).toEqual([]);
    expect(rewrite.failures[0]?.reason).toMatch(/only part of pkg\/mod.py was shown/);
  });
});
