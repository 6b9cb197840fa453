import { MARKDOWN_LINT_FILES } from "./markdown-lint.files";
import type { SeededFix, SeedRepo } from "./seed.types";

export const MARKDOWN_LINT: SeedRepo = {
  owner: "hubot",
  name: "markdown-lint",
  description: "A small, dependency-free Markdown linter for Node.js",
  language: "JavaScript",
  topics: ["markdown", "linter", "nodejs"],
  private: false,
  defaultBranch: "main",
  createdAt: "2022-11-07T13:37:00Z",
  executables: ["bin/mdlint.js"],
  commits: [{ message: "Initial commit", date: "2022-11-07T13:52:18Z", files: MARKDOWN_LINT_FILES }],
  issues: [
    {
      title: "Add a line-length rule",
      body: "Long lines make diffs hard to review. A configurable `line-length` rule (default 80) would help.",
      labels: ["enhancement"],
      user: "octocat",
      createdAt: "2022-12-01T09:00:00Z",
      state: "closed",
      stateReason: "completed",
      closedAt: "2022-12-04T15:20:00Z",
      comments: 3,
    },
    {
      title: "heading-increment misses a jump from # to ###",
      body: "This document passes without problems:\n\n```markdown\n# Title\n### Skipped a level\n```\n\nbut `heading-increment` should report line 2, since headings may only go one level deeper at a time. It only catches jumps of three or more levels. See `check()` in `src/rules/heading-increment.js`.",
      labels: ["bug"],
      user: "octocat",
      createdAt: "2024-01-30T14:25:36Z",
      state: "open",
      comments: 2,
    },
    {
      title: "trailing-spaces ignores trailing tabs",
      body: 'A line ending in a tab (`"text\\t"`) is not reported by `trailing-spaces`, although the README says the rule checks for spaces or tabs. The pattern is the `TRAILING` regular expression in `src/rules/trailing-spaces.js`.',
      labels: ["bug", "good first issue"],
      user: "monalisa",
      createdAt: "2024-02-08T08:14:03Z",
      state: "open",
    },
    {
      title: "line-length flags lines that are exactly at the limit",
      body: "With the default limit of 80, a line of exactly 80 characters is reported as too long. Only lines longer than the limit should be reported. See the comparison in `src/rules/line-length.js`.",
      labels: ["bug"],
      user: "octocat",
      createdAt: "2024-02-21T17:49:22Z",
      state: "open",
      comments: 1,
    },
    {
      title: "README shows a `--max-length` flag that does not exist",
      body: "The Usage section of `README.md` shows `npx mdlint --max-length 100 README.md`, but `bin/mdlint.js` only understands `--max-line-length`. With the README's flag, `--max-length` is treated as a file name and the command fails.",
      labels: ["documentation", "good first issue"],
      user: "octocat",
      createdAt: "2024-03-12T11:30:00Z",
      state: "open",
    },
    {
      title: "Support YAML front matter",
      body: "Front matter lines are linted as Markdown.",
      labels: ["enhancement"],
      user: "octocat",
      createdAt: "2023-05-15T10:10:10Z",
      state: "closed",
      stateReason: "not_planned",
      closedAt: "2023-05-20T10:10:10Z",
    },
  ],
};

export const MARKDOWN_LINT_FIXES: SeededFix[] = [
  {
    repo: "hubot/markdown-lint",
    issueNumber: 2,
    title: "Report heading jumps of more than one level",
    reproduction: {
      filename: "test/heading-jump-reproduction.test.js",
      content: `import assert from "node:assert/strict";
import { test } from "node:test";
import { check } from "../src/rules/heading-increment.js";

test("reproduction: a jump from # to ### is reported on its line", () => {
  assert.deepEqual(check(["# Title", "### Skipped a level"]).map((p) => p.line), [2]);
});
`,
    },
    analysis: "The rule only reports when level > previous + 2, so a jump of exactly two levels (h1 to h3) passes.",
    proposedSolution: "Report when the level exceeds the previous level by more than one, and test the h1 to h3 case.",
    files: [
      {
        filename: "src/rules/heading-increment.js",
        action: "modify",
        edits: [
          {
            search: "    if (previous > 0 && level > previous + 2) {\n",
            replace: "    if (previous > 0 && level > previous + 1) {\n",
          },
        ],
      },
      {
        filename: "test/heading-increment.test.js",
        action: "modify",
        edits: [
          {
            search: 'test("ignores headings inside fenced code", () => {\n',
            replace:
              'test("reports a jump of two levels", () => {\n  assert.deepEqual(check(["# Title", "### Skipped"]).map((p) => p.line), [2]);\n});\n\ntest("ignores headings inside fenced code", () => {\n',
          },
        ],
      },
    ],
  },
  {
    repo: "hubot/markdown-lint",
    issueNumber: 3,
    title: "Match trailing tabs as well as spaces",
    reproduction: {
      filename: "test/trailing-tab-reproduction.test.js",
      content: `import assert from "node:assert/strict";
import { test } from "node:test";
import { check } from "../src/rules/trailing-spaces.js";

test("reproduction: a line ending in a tab is reported", () => {
  assert.equal(check(["text\\t"]).length, 1);
});
`,
    },
    analysis: "TRAILING is / +$/, which only matches spaces.",
    proposedSolution: "Use /[ \\t]+$/ so any mix of trailing spaces and tabs is reported.",
    files: [
      {
        filename: "src/rules/trailing-spaces.js",
        action: "modify",
        edits: [{ search: "const TRAILING = / +$/;\n", replace: "const TRAILING = /[ \\t]+$/;\n" }],
      },
    ],
  },
  {
    repo: "hubot/markdown-lint",
    issueNumber: 4,
    title: "Only report lines longer than the limit",
    reproduction: {
      filename: "test/line-length-limit-reproduction.test.js",
      content: `import assert from "node:assert/strict";
import { test } from "node:test";
import { check } from "../src/rules/line-length.js";

test("reproduction: a line of exactly the limit is not reported", () => {
  assert.equal(check(["y".repeat(80)]).length, 0);
});
`,
    },
    analysis: "line-length compares with >=, so a line of exactly max characters is reported.",
    proposedSolution: "Compare with > so the limit itself is allowed.",
    files: [
      {
        filename: "src/rules/line-length.js",
        action: "modify",
        edits: [{ search: "    if (line.length >= max) {\n", replace: "    if (line.length > max) {\n" }],
      },
    ],
    firstAttempt: {
      analysis: "line-length compares with >=, so a line of exactly max characters is reported.",
      proposedSolution: "Allow lines up to the limit, with one character to spare for a trailing newline.",
      files: [
        {
          filename: "src/rules/line-length.js",
          action: "modify",
          edits: [{ search: "    if (line.length >= max) {\n", replace: "    if (line.length > max + 1) {\n" }],
        },
      ],
    },
  },
  {
    repo: "hubot/markdown-lint",
    issueNumber: 5,
    title: "Use the real --max-line-length flag in the README",
    analysis:
      "bin/mdlint.js parses --max-line-length; the README example uses --max-length, which is taken as a file name.",
    proposedSolution: "Change the README example to --max-line-length.",
    files: [
      {
        filename: "README.md",
        action: "modify",
        edits: [
          {
            search: "    npx mdlint --max-length 100 README.md\n",
            replace: "    npx mdlint --max-line-length 100 README.md\n",
          },
        ],
      },
    ],
  },
];
