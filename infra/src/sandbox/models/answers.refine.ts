import path from "node:path/posix";
import type { GeneratedSolution } from "@fixloop/contract";
import { anchorLine, commentFor, promptFiles } from "./answers";

type File = GeneratedSolution["files"][number];

/** The newest reviewer feedback item in a refinement prompt (items are numbered, oldest first). */
export function latestFeedback(prompt: string): string | undefined {
  const block = /<untrusted_feedback>\n([\s\S]*?)\n<\/untrusted_feedback>/.exec(prompt)?.[1];
  if (!block) return undefined;
  const items = block.split(/\n(?=\d+\. )/).map((s) => s.replace(/^\d+\.\s*/, "").trim());
  return items.filter(Boolean).at(-1);
}

/** Where a test for `file` lives by the usual convention of its language. */
export function testPathFor(file: string): string {
  const dir = path.dirname(file);
  const ext = path.extname(file);
  const base = path.basename(file, ext);
  const at = (name: string) => (dir === "." ? name : `${dir}/${name}`);
  if (ext === ".py") return at(`test_${base}.py`);
  if (ext === ".go") return at(`${base}_test.go`);
  if (ext === ".rs" || ext === ".md" || ext === "") return at(`${base}.test.md`);
  return at(`${base}.test${ext}`);
}

function testContent(file: string, title: string): string {
  const ext = path.extname(file);
  const base = path.basename(file, ext);
  const name = JSON.stringify(`regression: ${title}`);
  if (ext === ".py")
    return `from ${base} import *  # noqa: F401,F403\n\n\ndef test_regression():\n    """${title.replace(/"/g, "'")}"""\n    assert True\n`;
  if (ext === ".go")
    return `package main\n\nimport "testing"\n\nfunc TestRegression(t *testing.T) {\n\tt.Log(${name})\n}\n`;
  if (/\.(m|c)?[jt]sx?$/.test(ext)) {
    return `import assert from "node:assert/strict";\nimport { test } from "node:test";\nimport * as subject from "./${base}";\n\ntest(${name}, () => {\n  assert.ok(subject);\n});\n`;
  }
  return `# Test plan for ${file}\n\n- ${title}\n`;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A refinement that does what simple feedback asks, over the current contents the prompt shows:
 * "add a test" creates a test next to the changed file, "rename X to Y" renames an identifier in
 * every file shown, and anything else is recorded as a comment in the changed file.
 */
export function refinedSolution(prompt: string, base: GeneratedSolution): GeneratedSolution | undefined {
  const feedback = latestFeedback(prompt);
  if (!feedback) return undefined;
  const shown = promptFiles(prompt).map((f) => ({ path: f.path, text: f.lines.join("\n") }));
  const changed = base.files.find((f) => f.action !== "delete")?.filename ?? shown[0]?.path;
  const title = /^\s*Title:\s*(.+)$/m.exec(prompt)?.[1]?.trim() ?? "the reported issue";
  const files: File[] = [];
  const done: string[] = [];

  const rename = /\brename\s+`?([A-Za-z_$][\w$]*)`?\s+(?:to|as|into)\s+`?([A-Za-z_$][\w$]*)`?/i.exec(feedback);
  if (rename?.[1] && rename[2]) {
    const [from, to] = [rename[1], rename[2]];
    const word = new RegExp(`(?<![\\w$])${escape(from)}(?![\\w$])`, "g");
    for (const f of shown) {
      if (word.test(f.text))
        files.push({ filename: f.path, action: "modify", edits: [], content: f.text.replace(word, to) });
      word.lastIndex = 0;
    }
    done.push(`renamed ${from} to ${to} in ${files.length} file(s)`);
  }
  if (/\b(add|write|include)\b[^.]*\btests?\b/i.test(feedback) && changed) {
    const testPath = testPathFor(changed);
    if (!shown.some((f) => f.path === testPath)) {
      files.push({ filename: testPath, action: "create", edits: [], content: testContent(changed, title) });
      done.push(`added ${testPath}`);
    }
  }
  if (!files.length && changed) {
    const current = shown.find((f) => f.path === changed);
    const comment = commentFor(changed);
    const anchor = current && anchorLine(current.text.split("\n"));
    if (!current || !comment || anchor === undefined) return undefined;
    const indent = /^\s*/.exec(anchor)?.[0] ?? "";
    const note = `${indent}${comment(`Reviewer: ${feedback.replace(/\s+/g, " ").slice(0, 100)}`)}`;
    files.push({ filename: changed, action: "modify", edits: [{ search: anchor, replace: `${note}\n${anchor}` }] });
    done.push(`noted the feedback in ${changed}`);
  }
  return {
    analysis: base.analysis,
    proposedSolution: `${base.proposedSolution}\n\nRefined after review: ${done.join("; ")}.`,
    confidence: base.confidence,
    files,
  };
}
