import { describe, expect, it } from "vitest";
import type { FileChange } from "@fixloop/db";
import { fixesLine, prBody, prTitle, type BodyInput } from "./pull-requests.body";
import type { Guidelines } from "./pull-requests.guidelines";
import { branchName } from "./pull-requests.job";
import { assertChangeAllowed, assertNoSymlinks, countChangedLines } from "./pull-requests.limits";

const NONE: Guidelines = { template: null, contributing: null, conventionalCommits: false, signOff: false, draftRequired: false };
const input: BodyInput = {
  issueNumber: 3,
  issueTitle: "Pagination skips a todo",
  issueRepo: "octocat/todo-api",
  baseRepo: "octocat/todo-api",
  analysis: "The offset adds one.",
  proposedSolution: "Drop the extra one.",
  model: "Llama 3.3 70B",
  confidence: 88,
  files: [{ filename: "src/paginate.ts", action: "modify", originalContent: "a\nb\n", content: "a\nc\n" }],
  metadata: { validation: { riskLevel: "low", warnings: [] }, riskScore: 18, advancedValidation: { score: 96 }, manualEdits: [{ filename: "src/paginate.ts" }] },
  reviewer: "octocat",
};

describe("pull request body", () => {
  it("has summary, analysis, files, validation evidence, model and the Fixes line", () => {
    const body = prBody(input, NONE);
    for (const part of ["## Summary", "Drop the extra one.", "The offset adds one.", "`src/paginate.ts` (modified, 2 lines changed)", "Risk: low (score 18/100)", "static validation (score 96/100)", "with 1 manual edit", "Llama 3.3 70B", "Fixes #3"]) {
      expect(body).toContain(part);
    }
  });

  it("discloses the AI assistance and names the reviewer who approved it", () => {
    const body = prBody(input, NONE);
    expect(body).toContain("**AI assistance:** this change was generated with Llama 3.3 70B (confidence 88%) in Fixloop. Reviewed and approved by @octocat before opening.");
    expect(body.trimEnd().endsWith("before opening.")).toBe(true);
  });

  it("includes the test evidence only when the solve ran the tests", () => {
    expect(prBody(input, NONE)).not.toContain("Tests:");
    const tests = { status: "passed", command: "npm test", base: { passed: 11, failed: 1 }, patched: { passed: 13, failed: 0 }, fixed: ["paginates without skipping"], regressions: [] };
    const body = prBody({ ...input, metadata: { ...input.metadata, tests } }, NONE);
    for (const line of ["- Tests: passed (`npm test`)", "  - Before the change: 11 passed, 1 failed", "  - After the change: 13 passed, 0 failed", "  - Fixed by the change: 1 (`paginates without skipping`)", "  - Regressions: 0"]) {
      expect(body).toContain(line);
    }
    expect(body.indexOf("Tests: passed")).toBeGreaterThan(body.indexOf("## Validation"));
  });

  it("names the issue's repository when the pull request goes elsewhere", () => {
    expect(fixesLine({ ...input, baseRepo: "hubot/todo-api" })).toBe("Fixes octocat/todo-api#3");
    expect(fixesLine(input)).toBe("Fixes #3");
  });

  it("fills a repository template section by section and keeps its checklist", () => {
    const template = "## What does this change?\n\n<!-- One or two sentences. -->\n\n## How was it tested?\n\n- [ ] `npm test` passes\n\n## Notes\n\nAnything else.\n";
    const body = prBody(input, { ...NONE, template });
    expect(body).not.toContain("<!--");
    expect(body.indexOf("## What does this change?")).toBeLessThan(body.indexOf("Drop the extra one."));
    expect(body.indexOf("## How was it tested?")).toBeLessThan(body.indexOf("Risk: low"));
    expect(body).toContain("- [ ] `npm test` passes");
    expect(body).toContain("## Notes\n\nAnything else.");
    expect(body).toContain("## Files changed");
    expect(body).toContain("Fixes #3");
  });

  it("uses a conventional title when the contributing guide asks for Conventional Commits", () => {
    expect(prTitle(input, NONE)).toBe("Fix #3: Pagination skips a todo");
    expect(prTitle(input, { ...NONE, conventionalCommits: true })).toBe("fix: pagination skips a todo (#3)");
  });

  it("names branches fixloop/issue-<n>-<slug>", () => {
    expect(branchName(12, "Crash on `GET /todos?page=-1` (!!)")).toBe("fixloop/issue-12-crash-on-get-todos-page-1");
    expect(branchName(7, "???")).toBe("fixloop/issue-7");
  });
});

describe("change limits", () => {
  const file = (filename: string, content = "x\n"): FileChange => ({ filename, action: "create", originalContent: "", content });
  const limits = { maxFiles: 50, maxChangedLines: 5000 };
  const code = (fn: () => void) => {
    try {
      fn();
      return null;
    } catch (err) {
      return (err as { code?: string }).code;
    }
  };

  it("refuses denied and escaping paths, more than 50 files and more than 5,000 changed lines", () => {
    expect(code(() => assertChangeAllowed([file(".github/workflows/ci.yml")], limits))).toBe("pull_request.path_denied");
    expect(code(() => assertChangeAllowed([file("../outside.txt")], limits))).toBe("pull_request.path_denied");
    expect(code(() => assertChangeAllowed([file("src/../../x")], limits))).toBe("pull_request.path_denied");
    expect(code(() => assertChangeAllowed(Array.from({ length: 51 }, (_, i) => file(`f${i}.txt`)), limits))).toBe("pull_request.too_large");
    expect(code(() => assertChangeAllowed(Array.from({ length: 50 }, (_, i) => file(`f${i}.txt`)), limits))).toBeNull();
    expect(code(() => assertChangeAllowed([file("big.txt", "l\n".repeat(5001))], limits))).toBe("pull_request.too_large");
    expect(code(() => assertChangeAllowed([file("big.txt", "l\n".repeat(100))], { ...limits, maxChangedLines: 99 }))).toBe("pull_request.too_large");
    expect(code(() => assertChangeAllowed([], limits))).toBe("pull_request.empty");
  });

  it("refuses writes through a symlinked file or directory", () => {
    const tree = new Map([["docs", { path: "docs", mode: "120000", type: "blob" }], ["link.txt", { path: "link.txt", mode: "120000", type: "blob" }]]);
    expect(code(() => assertNoSymlinks([file("docs/readme.md")], tree))).toBe("pull_request.symlink");
    expect(code(() => assertNoSymlinks([file("link.txt")], tree))).toBe("pull_request.symlink");
    expect(code(() => assertNoSymlinks([file("src/ok.ts")], tree))).toBeNull();
  });

  it("counts added plus removed lines", () => {
    expect(countChangedLines("a\nb\nc", "a\nc\nd")).toBe(2);
    expect(countChangedLines("", "a\nb")).toBe(2);
    expect(countChangedLines("a\nb", "")).toBe(2);
  });
});
