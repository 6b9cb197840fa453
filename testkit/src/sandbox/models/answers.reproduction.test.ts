import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MARKDOWN_LINT_FILES } from "../github/seed/markdown-lint.files";
import { MARKDOWN_LINT_FIXES } from "../github/seed/markdown-lint.seed";
import { reproductionAnswer } from "./answers.reproduction";

/** Runs the seeded reproduction test in a copy of the seeded tree, with or without the seeded fix. */
function passes(fix: (typeof MARKDOWN_LINT_FIXES)[number], applied: boolean): boolean {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-repro-"));
  try {
    for (const [name, content] of Object.entries(MARKDOWN_LINT_FILES)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), content);
    }
    if (applied)
      for (const f of fix.files) {
        const file = path.join(dir, f.filename);
        let text = fs.readFileSync(file, "utf8");
        for (const e of f.edits ?? []) text = text.replace(e.search, e.replace);
        fs.writeFileSync(file, text);
      }
    const r = fix.reproduction;
    if (!r) throw new Error("no reproduction");
    fs.writeFileSync(path.join(dir, r.filename), r.content);
    execFileSync(process.execPath, ["--test", r.filename], { cwd: dir, stdio: "pipe" });
    return true;
  } catch (err) {
    if ((err as { status?: number }).status === undefined) throw err;
    return false;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("the model stand-in's reproduction tests", () => {
  const seeded = MARKDOWN_LINT_FIXES.filter((f) => f.reproduction);

  it("fail on the seeded base tree and pass with the seeded fix", () => {
    expect(seeded.map((f) => f.issueNumber)).toEqual([2, 3, 4]);
    for (const fix of seeded)
      expect([fix.issueNumber, passes(fix, false), passes(fix, true)]).toEqual([fix.issueNumber, false, true]);
  });

  it("answer the issue a prompt names, and an empty filename for an issue without one", () => {
    const prompt = "<untrusted_issue>\nTitle: trailing-spaces ignores trailing tabs\n\n…</untrusted_issue>";
    expect(reproductionAnswer(MARKDOWN_LINT_FIXES, prompt).filename).toBe("test/trailing-tab-reproduction.test.js");
    expect(reproductionAnswer(MARKDOWN_LINT_FIXES, "Title: something else")).toMatchObject({
      filename: "",
      content: "",
    });
  });
});
