import type { GeneratedSolution } from "@fixloop/contract";
import { anchorLine, commentFor, promptFiles } from "./answers";
import { testFor } from "./answers.tests";

type File = GeneratedSolution["files"][number];

/** The newest reviewer feedback item in a refinement prompt (items are numbered, oldest first). */
export function latestFeedback(prompt: string): string | undefined {
  const block = /<untrusted_feedback>\n([\s\S]*?)\n<\/untrusted_feedback>/.exec(prompt)?.[1];
  if (!block) return undefined;
  const items = block.split(/\n(?=\d+\. )/).map((s) => s.replace(/^\d+\.\s*/, "").trim());
  return items.filter(Boolean).at(-1);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * A refinement that does what simple feedback asks, over the current contents the prompt shows:
 * "add a test" writes a test for the changed file in the repository's test layout (answers.tests), "rename X to Y" renames an identifier in
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
  const current = shown.find((f) => f.path === changed);
  if (/\b(add|write|include)\b[^.]*\btests?\b/i.test(feedback) && current) {
    const repoMap = /(?:^|\n)Repository map[^\n]*\n([\s\S]*?)(?:\n\n|$)/.exec(prompt)?.[1] ?? "";
    const test = testFor(current, shown, repoMap, title);
    if (test && !files.some((f) => f.filename === test.filename)) {
      files.push(test);
      done.push(`${test.action === "create" ? "added" : "added a test to"} ${test.filename}`);
    }
  }
  if (!files.length && changed) {
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
