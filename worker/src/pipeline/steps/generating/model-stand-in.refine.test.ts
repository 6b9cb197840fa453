import { describe, expect, it } from "vitest";
import {
  fallbackSolution,
  latestFeedback,
  refinedSolution,
  SEEDED_FIXES,
  seededSolution,
} from "@fixloop/testkit/sandbox";
import { applyGeneratedFiles } from "./apply-edits";
import { buildPrompt, type PromptInput } from "./prompt";

const DUE =
  "export function isOverdue(due: string, now: Date): boolean {\n  // compare calendar days (UTC): a todo is overdue once its due day has passed\n  return due < now.toISOString().slice(0, 10);\n}\n";
const LIST =
  'import { isOverdue } from "./due";\n\nexport function overdue(todos: { due: string }[], now: Date) {\n  return todos.filter((t) => isOverdue(t.due, now));\n}\n';

function refinementPrompt(feedback: string[]): { prompt: string; input: PromptInput } {
  const input: PromptInput = {
    repository: "octocat/todo-api",
    issueNumber: 5,
    issueTitle: "Todos due today are already marked overdue",
    issueBody: "A todo due today shows as overdue in the morning.",
    labels: ["bug"],
    classification: { type: "bug", complexity: "simple" },
    files: [
      { path: "src/due.ts", content: DUE, reasons: ["changed by the current solution"] },
      { path: "src/list.ts", content: LIST, reasons: ["imports src/due.ts"] },
    ],
    repoMap: "src/due.ts\nsrc/list.ts",
    feedback,
  };
  return { prompt: buildPrompt(input), input };
}

/** What the pipeline makes of the stand-in's answer to this prompt. */
function answer(feedback: string[]) {
  const { prompt, input } = refinementPrompt(feedback);
  const base = seededSolution(SEEDED_FIXES, prompt) ?? fallbackSolution(prompt);
  const refined = refinedSolution(prompt, base);
  if (!refined) throw new Error("no refinement");
  const applied = applyGeneratedFiles(refined.files, new Map(input.files.map((f) => [f.path, f.content])));
  expect(applied.failures).toEqual([]);
  return { refined, changes: applied.changes };
}

describe("the model stand-in on refinement feedback", () => {
  it("reads the newest feedback item of the prompt", () => {
    expect(latestFeedback(refinementPrompt(["Keep it short.", "Also add a test\nfor today."]).prompt)).toBe(
      "Also add a test\nfor today.",
    );
    expect(latestFeedback(buildPrompt({ ...refinementPrompt([]).input, feedback: [] }))).toBeUndefined();
  });

  it("adds a test file next to the changed file when the prompt shows no test layout", () => {
    const { refined, changes } = answer(["Also add a test for a todo due later today."]);
    // TypeScript imported by its ESM name, in a file every runner (Node's too) picks up.
    expect(changes).toEqual([expect.objectContaining({ filename: "src/due.test.js", action: "create" })]);
    expect(changes[0]?.content).toContain('import { isOverdue } from "./due.js";');
    expect(refined.proposedSolution).toContain("added src/due.test.js");
  });

  it("renames an identifier in every file shown", () => {
    const { changes } = answer(["Please rename isOverdue to isPastDue."]);
    expect(changes.map((c) => c.filename).sort()).toEqual(["src/due.ts", "src/list.ts"]);
    for (const c of changes) {
      expect(c.content).toContain("isPastDue");
      expect(c.content).not.toMatch(/\bisOverdue\b/);
    }
  });

  it("records any other feedback as a visible note in the changed file", () => {
    const { changes } = answer(["Explain the string comparison."]);
    expect(changes).toHaveLength(1);
    expect(changes[0]?.filename).toBe("src/due.ts");
    expect(changes[0]?.content).toContain("// Reviewer: Explain the string comparison.");
  });
});
