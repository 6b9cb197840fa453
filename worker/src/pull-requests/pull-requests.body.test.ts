import { describe, expect, it } from "vitest";
import { type FileChange, RISK_DISPLAY_SCORE, diffCounts } from "@fixloop/contract";
import { DRAFT_REFUSED_NOTICE, fixesLine, prBody, prTitle, type BodyInput } from "./pull-requests.body";
import { MAX_BODY_CHARS } from "./pull-requests.inert";
import type { Guidelines } from "./pull-requests.guidelines";
import { branchName } from "./pull-requests.job";
import {
  assertChangeAllowed,
  assertNoDirectoryReplaced,
  assertNoSymlinks,
  countChangedLines,
} from "./pull-requests.limits";

const NONE: Guidelines = {
  template: null,
  contributing: null,
  conventionalCommits: false,
  signOff: false,
  draftRequired: false,
};
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
  metadata: {
    validation: { riskLevel: "low", warnings: [] },
    riskScore: 18,
    advancedValidation: { score: 96 },
    manualEdits: [{ filename: "src/paginate.ts" }],
  },
  reviewer: "octocat",
};

describe("pull request body", () => {
  it("has summary, analysis, files, validation evidence, model and the Fixes line", () => {
    const body = prBody(input, NONE);
    for (const part of [
      "## Summary",
      "Drop the extra one.",
      "The offset adds one.",
      "`src/paginate.ts` (modified, +1 −1 lines)",
      "static validation (score 96/100)",
      "with 1 manual edit",
      "Llama 3.3 70B",
      "Fixes #3",
    ]) {
      expect(body).toContain(part);
    }
  });

  it("counts lines as the diff view does: a new file's last newline and a moved line are not miscounted", () => {
    const files: FileChange[] = [
      { filename: "test/due.test.js", action: "create", originalContent: "", content: "a\nb\nc\n" },
      { filename: "src/due.ts", action: "modify", originalContent: "a\nb\nc\n", content: "c\na\nb\n" },
    ];
    // The diff view's counts (the web's diff headers use the same function).
    expect(files.map((f) => diffCounts(f.originalContent, f.content))).toEqual([
      { added: 3, removed: 0 },
      { added: 1, removed: 1 },
    ]);
    const body = prBody({ ...input, files }, NONE);
    expect(body).toContain("`test/due.test.js` (added, +3 −0 lines)");
    expect(body).toContain("`src/due.ts` (modified, +1 −1 lines)");
    expect(body).toContain("change size (2 files, +4 −1 lines)");
  });

  it("leads with the verdict in the panel's words, then counts before and after, fixed tests, the repair round", () => {
    const tests = {
      command: "npm test",
      backend: "bwrap",
      base: { passed: 7, failed: 1, errored: 0, durationMs: 120 },
      patched: { passed: 8, failed: 0, errored: 0, durationMs: 130 },
      fixed: ["reports trailing tabs"],
      regressions: [],
      logTail: "",
      status: "passed",
      attempts: [
        {
          label: "first",
          patched: { passed: 6, failed: 2, errored: 0, durationMs: 1 },
          fixed: [],
          regressions: ["accepts clean lines"],
        },
        {
          label: "repair",
          patched: { passed: 8, failed: 0, errored: 0, durationMs: 1 },
          fixed: ["reports trailing tabs"],
          regressions: [],
        },
      ],
      kept: "repair",
    };
    const body = prBody({ ...input, metadata: { ...input.metadata, tests } }, NONE);
    expect(body).toContain(
      "- Tests: **passed** (`npm test`, sandboxed); before the patch 7 passed, 1 failed, after it 8 passed, 0 failed",
    );
    expect(body).toContain("Fixed: `reports trailing tabs`");
    expect(body).toContain("first attempt's regressions (accepts clean lines); the repaired attempt is the one here");
    const pre = prBody(
      {
        ...input,
        metadata: {
          ...input.metadata,
          tests: { ...tests, patched: { ...tests.patched, failed: 1 }, preexisting: ["parses dates"], attempts: [] },
        },
      },
      NONE,
    );
    expect(pre).toContain("- Tests: **passed with pre-existing failures: parses dates** (`npm test`");
    const exit = prBody(
      {
        ...input,
        metadata: {
          ...input.metadata,
          tests: { ...tests, status: "failed", regressions: ["test command exit code 0 → 1"], attempts: [] },
        },
      },
      NONE,
    );
    expect(exit).toContain("- Tests: **regressions: test command exit code 0 → 1**");
    const stale = prBody(
      {
        ...input,
        metadata: { ...input.metadata, tests: { ...tests, stale: { at: "2026-01-01T00:00:00Z", by: "edit" } } },
      },
      NONE,
    );
    expect(stale).toContain("- Tests: **not run on the edited code**");
    expect(stale).not.toContain("**passed**");
    const skipped = prBody(
      {
        ...input,
        metadata: {
          ...input.metadata,
          tests: {
            ...tests,
            status: "skipped",
            reason: "No test command found; add .fixloop.yml",
            base: null,
            patched: null,
            command: null,
            attempts: [],
          },
        },
      },
      NONE,
    );
    expect(skipped).toContain("- Tests: **not run: No test command found; add .fixloop.yml**");
    const missing = prBody(
      {
        ...input,
        metadata: {
          ...input.metadata,
          tests: { ...tests, status: "error", cause: "toolchain", reason: "go not found", attempts: [] },
        },
      },
      NONE,
    );
    expect(missing).toContain("- Tests: **could not run: go not found**");
  });

  it("lists the hosts the sandbox refused to a networked setup, and how setup ran", () => {
    const tests = {
      command: "npm test",
      backend: "bwrap",
      base: { passed: 1, failed: 0, errored: 0, durationMs: 1 },
      patched: { passed: 1, failed: 0, errored: 0, durationMs: 1 },
      fixed: [],
      regressions: [],
      logTail: "",
      status: "passed",
      attempts: [],
      blockedHosts: ["169.254.169.254:80 (address not on the allowlist)"],
      notes: ["This repository's setup wants network; not granted"],
    };
    const body = prBody({ ...input, metadata: { ...input.metadata, tests } }, NONE);
    expect(body).toContain(
      "  - Setup's network requests refused by the sandbox or unreachable: `169.254.169.254:80 (address not on the allowlist)`",
    );
    expect(body).toContain("  - This repository's setup wants network; not granted");
  });

  it("states the same risk score the validation page shows, not the raw score behind the level", () => {
    expect(prBody(input, NONE)).toContain(`Risk: low (score ${RISK_DISPLAY_SCORE.low}/100)`);
    expect(prBody(input, NONE)).not.toContain("18/100");
    const derived = prBody(
      { ...input, metadata: { ...input.metadata, validation: { warnings: [] }, riskScore: 55 } },
      NONE,
    );
    expect(derived).toContain(`Risk: medium (score ${RISK_DISPLAY_SCORE.medium}/100)`);
  });

  it("discloses the AI assistance and names the reviewer who approved it", () => {
    const body = prBody(input, NONE);
    expect(body).toContain(
      "**AI assistance:** this change was generated with Llama 3.3 70B (confidence 88%) in Fixloop. Reviewed and approved by @octocat before opening.",
    );
    expect(body.trimEnd().endsWith("before opening.")).toBe(true);
  });

  it("names the issue's repository when the pull request goes elsewhere", () => {
    expect(fixesLine({ ...input, baseRepo: "hubot/todo-api" })).toBe("Fixes octocat/todo-api#3");
    expect(fixesLine(input)).toBe("Fixes #3");
  });

  it("fills a repository template section by section; the verdict replaces the testing section's checklist", () => {
    const template =
      "## What does this change?\n\n<!-- One or two sentences. -->\n\n## How was it tested?\n\n- [ ] `npm test` passes\n\n## Notes\n\nAnything else.\n";
    const body = prBody(input, { ...NONE, template });
    expect(body).not.toContain("<!--");
    expect(body.indexOf("## What does this change?")).toBeLessThan(body.indexOf("Drop the extra one."));
    expect(body.indexOf("## How was it tested?")).toBeLessThan(body.indexOf("Risk: low"));
    expect(body).not.toContain("- [ ] `npm test` passes");
    expect(body).toContain("## Notes\n\nAnything else.");
    expect(body).toContain("## Files changed");
    expect(body).toContain("Fixes #3");
  });

  it("leads with the not-ready notice when the repository refused a draft, over a template and a clipped body too", () => {
    const template = "## What does this change?\n\n## How was it tested?\n";
    const unverified = { ...input, metadata: { ...input.metadata, unverified: { reason: "Nothing reproduced it." } } };
    const long = { ...unverified, proposedSolution: "Long line.\n".repeat(10_000) };
    for (const body of [
      prBody(unverified, NONE, { draftRefused: true }),
      prBody(unverified, { ...NONE, template }, { draftRefused: true }),
      prBody(long, NONE, { draftRefused: true }),
    ]) {
      expect(body.startsWith(`${DRAFT_REFUSED_NOTICE}\n\n`)).toBe(true);
      expect(body).toContain("> **Unverified:** Nothing reproduced it. The reviewer approved it without positive test");
      expect(body).not.toContain("as a draft because");
      expect(body.length).toBeLessThanOrEqual(MAX_BODY_CHARS);
    }
    const asDraft = prBody(unverified, NONE);
    expect(asDraft).not.toContain(DRAFT_REFUSED_NOTICE);
    expect(asDraft).toContain("Fixloop opened this pull request as a draft because");
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
  const file = (filename: string, content = "x\n"): FileChange => ({
    filename,
    action: "create",
    originalContent: "",
    content,
  });
  const limits = { maxFiles: 50, maxChangedLines: 5000, maxBytes: 1_000_000 };
  const code = (fn: () => void) => {
    try {
      fn();
      return null;
    } catch (err) {
      return (err as { code?: string }).code;
    }
  };

  it("refuses denied and escaping paths, more than 50 files and more than 5,000 changed lines", () => {
    expect(code(() => assertChangeAllowed([file(".github/workflows/ci.yml")], limits))).toBe(
      "pull_request.path_denied",
    );
    expect(code(() => assertChangeAllowed([file("../outside.txt")], limits))).toBe("pull_request.path_denied");
    expect(code(() => assertChangeAllowed([file("src/../../x")], limits))).toBe("pull_request.path_denied");
    expect(
      code(() =>
        assertChangeAllowed(
          Array.from({ length: 51 }, (_, i) => file(`f${i}.txt`)),
          limits,
        ),
      ),
    ).toBe("pull_request.too_large");
    expect(
      code(() =>
        assertChangeAllowed(
          Array.from({ length: 50 }, (_, i) => file(`f${i}.txt`)),
          limits,
        ),
      ),
    ).toBeNull();
    expect(code(() => assertChangeAllowed([file("big.txt", "l\n".repeat(5001))], limits))).toBe(
      "pull_request.too_large",
    );
    expect(
      code(() => assertChangeAllowed([file("big.txt", "l\n".repeat(100))], { ...limits, maxChangedLines: 99 })),
    ).toBe("pull_request.too_large");
    expect(code(() => assertChangeAllowed([], limits))).toBe("pull_request.empty");
  });

  it("refuses protected directories in any spelling, repository-control files and git attribute drivers on its own", () => {
    for (const p of [
      ".github/workflows",
      ".github/actions",
      ".GitHub/Workflows/",
      ".github",
      "./.github//workflows/ci.yml",
      ".github/dependabot.yml",
      "CODEOWNERS",
      "docs/CODEOWNERS",
      ".github/CODEOWNERS",
      ".gitmodules",
      ".fixloop.yml",
      ".Fixloop.yaml",
    ]) {
      expect(
        code(() => assertChangeAllowed([file(p)], limits)),
        p,
      ).toBe("pull_request.path_denied");
    }
    expect(
      code(() => assertChangeAllowed([{ ...file(".gitattributes", "* filter=x\n"), action: "modify" }], limits)),
    ).toBe("pull_request.path_denied");
    expect(code(() => assertChangeAllowed([{ ...file(".github/workflows"), action: "delete" }], limits))).toBe(
      "pull_request.path_denied",
    );
  });

  it("refuses a file that would replace a directory of the base tree", () => {
    const tree = new Map([
      ["src", { path: "src", mode: "040000", type: "tree" }],
      ["src/app.ts", { path: "src/app.ts", mode: "100644", type: "blob" }],
    ]);
    expect(code(() => assertNoDirectoryReplaced([file("src")], tree))).toBe("pull_request.path_denied");
    expect(code(() => assertNoDirectoryReplaced([file("src/app.ts")], tree))).toBeNull();
  });

  it("refuses a file or a patch over PR_MAX_BYTES, even on one line", () => {
    expect(code(() => assertChangeAllowed([file("one-line.txt", "x".repeat(6_000_000))], limits))).toBe(
      "pull_request.too_large",
    );
    expect(
      code(() =>
        assertChangeAllowed([file("a.txt", "é".repeat(600)), file("b.txt", "é".repeat(600))], {
          ...limits,
          maxBytes: 2000,
        }),
      ),
    ).toBe("pull_request.too_large");
    expect(
      code(() =>
        assertChangeAllowed([file("a.txt", "é".repeat(400)), file("b.txt", "é".repeat(400))], {
          ...limits,
          maxBytes: 2000,
        }),
      ),
    ).toBeNull();
  });

  it("refuses binary content unless the file was binary before", () => {
    const bin = "PNG\u0000\u0001\uFFFD";
    expect(code(() => assertChangeAllowed([file("logo.png", bin)], limits))).toBe("pull_request.binary_content");
    expect(
      code(() =>
        assertChangeAllowed(
          [{ filename: "src/a.ts", action: "modify", originalContent: "text\n", content: bin }],
          limits,
        ),
      ),
    ).toBe("pull_request.binary_content");
    expect(
      code(() =>
        assertChangeAllowed(
          [{ filename: "logo.png", action: "modify", originalContent: bin, content: bin + "\u0002" }],
          limits,
        ),
      ),
    ).toBeNull();
  });

  it("refuses writes through a symlinked file or directory", () => {
    const tree = new Map([
      ["docs", { path: "docs", mode: "120000", type: "blob" }],
      ["link.txt", { path: "link.txt", mode: "120000", type: "blob" }],
    ]);
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

describe("pull request body of a deployment whose sandbox is off", () => {
  const off = {
    command: null,
    backend: "off",
    base: null,
    patched: null,
    fixed: [],
    regressions: [],
    logTail: "",
    status: "skipped",
    attempts: [],
  };

  it("says first, before the summary, that the tests were not run", () => {
    const body = prBody({ ...input, metadata: { ...input.metadata, tests: off } }, NONE);
    const caution = body.indexOf("**Tests not run: this Fixloop deployment runs with its sandbox off");
    expect(caution).toBeGreaterThanOrEqual(0);
    expect(caution).toBeLessThan(body.indexOf("## Summary"));
    expect(body).toContain("- Tests: **not run: sandbox off**");
  });

  it("says nothing of it when the tests ran sandboxed, or were skipped for another reason", () => {
    for (const tests of [
      { ...off, backend: "bwrap", command: "npm test", status: "passed" },
      { ...off, backend: "bwrap", reason: "no test command" },
    ]) {
      const body = prBody({ ...input, metadata: { ...input.metadata, tests } }, NONE);
      expect(body).not.toContain("Tests not run:");
    }
  });
});
