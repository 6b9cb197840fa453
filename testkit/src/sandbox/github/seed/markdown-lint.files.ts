/** Files of the seeded hubot/markdown-lint repository (JavaScript). */
export const MARKDOWN_LINT_FILES: Record<string, string> = {
  "README.md": `# markdown-lint

A small, dependency-free Markdown linter for Node.js.

## Usage

    npx mdlint README.md docs/*.md
    npx mdlint --max-length 100 README.md

Each problem is printed as \`file:line:column rule message\`; the exit code is 1 when
there are problems.

## Rules

| Rule | What it checks |
|---|---|
| \`heading-increment\` | heading levels only go up one level at a time |
| \`trailing-spaces\` | no spaces or tabs at the end of a line |
| \`line-length\` | lines are at most 80 characters (configurable) |

## API

\`\`\`js
import { lint } from "markdown-lint";

const problems = lint(text, { "line-length": { max: 100 } });
\`\`\`

See [CONTRIBUTING.md](CONTRIBUTING.md) to add a rule.
`,
  "package.json": `{
  "name": "markdown-lint",
  "version": "0.3.0",
  "description": "A small, dependency-free Markdown linter",
  "type": "module",
  "main": "src/index.js",
  "bin": {
    "mdlint": "bin/mdlint.js"
  },
  "scripts": {
    "test": "node --test"
  },
  "engines": {
    "node": ">=18"
  },
  "license": "MIT"
}
`,
  ".gitignore": `node_modules/
`,
  ".github/workflows/ci.yml": `name: CI

on:
  push:
    branches: [main]
  pull_request:

jobs:
  test:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        node-version: [18, 20, 22]
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: \${{ matrix.node-version }}
      - run: npm test
`,
  "CONTRIBUTING.md": `# Contributing

1. Each rule lives in \`src/rules/<rule-name>.js\` and exports \`name\` and \`check(lines, options)\`.
2. \`check\` returns problems as \`{ line, column, rule, message }\`, with 1-based line and column.
3. Register the rule in \`src/rules/index.js\` and document it in the README table.
4. Add tests in \`test/<rule-name>.test.js\` using \`node:test\`; run them with \`npm test\`.
`,
  "src/rules/heading-increment.js": `export const name = "heading-increment";

/** Headings may only go one level deeper than the previous heading. */
export function check(lines) {
  const problems = [];
  let previous = 0;
  let inFence = false;
  lines.forEach((line, index) => {
    if (/^(\`\`\`|~~~)/.test(line)) inFence = !inFence;
    if (inFence) return;
    const match = /^(#{1,6})\\s/.exec(line);
    if (!match) return;
    const level = match[1].length;
    if (previous > 0 && level > previous + 2) {
      problems.push({
        line: index + 1,
        column: 1,
        rule: name,
        message: \`Heading level jumps from h\${previous} to h\${level}\`,
      });
    }
    previous = level;
  });
  return problems;
}
`,
  "src/rules/trailing-spaces.js": `export const name = "trailing-spaces";

const TRAILING = / +$/;

export function check(lines) {
  const problems = [];
  lines.forEach((line, index) => {
    const match = TRAILING.exec(line);
    if (match) {
      problems.push({ line: index + 1, column: match.index + 1, rule: name, message: "Trailing whitespace" });
    }
  });
  return problems;
}
`,
  "src/rules/line-length.js": `export const name = "line-length";

export const defaults = { max: 80 };

export function check(lines, options = {}) {
  const max = options.max ?? defaults.max;
  const problems = [];
  lines.forEach((line, index) => {
    if (line.length >= max) {
      problems.push({
        line: index + 1,
        column: max + 1,
        rule: name,
        message: \`Line is \${line.length} characters long (max \${max})\`,
      });
    }
  });
  return problems;
}
`,
  "src/rules/index.js": `import * as headingIncrement from "./heading-increment.js";
import * as lineLength from "./line-length.js";
import * as trailingSpaces from "./trailing-spaces.js";

export const rules = [headingIncrement, trailingSpaces, lineLength];
`,
  "src/index.js": `import { rules } from "./rules/index.js";

/**
 * Lints Markdown text. \`config\` maps rule names to options, or to false to disable a rule.
 * Returns problems sorted by line and column.
 */
export function lint(text, config = {}) {
  const lines = text.split(/\\r?\\n/);
  const problems = [];
  for (const rule of rules) {
    const options = config[rule.name];
    if (options === false) continue;
    problems.push(...rule.check(lines, options ?? {}));
  }
  return problems.sort((a, b) => a.line - b.line || a.column - b.column);
}
`,
  "bin/mdlint.js": `#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { lint } from "../src/index.js";

const args = process.argv.slice(2);
const config = {};
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--max-line-length") {
    config["line-length"] = { max: Number(args[++i]) };
  } else {
    files.push(args[i]);
  }
}

if (files.length === 0) {
  console.error("usage: mdlint [--max-line-length N] FILE...");
  process.exit(2);
}

let count = 0;
for (const file of files) {
  for (const p of lint(readFileSync(file, "utf8"), config)) {
    console.log(\`\${file}:\${p.line}:\${p.column} \${p.rule} \${p.message}\`);
    count++;
  }
}
process.exit(count > 0 ? 1 : 0);
`,
  "test/heading-increment.test.js": `import assert from "node:assert/strict";
import { test } from "node:test";
import { check } from "../src/rules/heading-increment.js";

test("accepts headings that go down one level at a time", () => {
  assert.deepEqual(check(["# Title", "## Section", "### Detail", "## Next"]), []);
});

test("reports a jump of three levels", () => {
  const problems = check(["# Title", "#### Deep"]);
  assert.equal(problems.length, 1);
  assert.equal(problems[0].line, 2);
});

test("ignores headings inside fenced code", () => {
  assert.deepEqual(check(["# Title", "\`\`\`", "#### not a heading", "\`\`\`"]), []);
});
`,
  "test/trailing-spaces.test.js": `import assert from "node:assert/strict";
import { test } from "node:test";
import { check } from "../src/rules/trailing-spaces.js";

test("reports trailing spaces with their column", () => {
  assert.deepEqual(check(["fine", "oops  "]), [
    { line: 2, column: 5, rule: "trailing-spaces", message: "Trailing whitespace" },
  ]);
});

test("accepts clean lines", () => {
  assert.deepEqual(check(["# Title", "", "Some text."]), []);
});
`,
  "test/line-length.test.js": `import assert from "node:assert/strict";
import { test } from "node:test";
import { check } from "../src/rules/line-length.js";

test("reports lines longer than the limit", () => {
  const problems = check(["short", "x".repeat(120)], { max: 100 });
  assert.equal(problems.length, 1);
  assert.equal(problems[0].line, 2);
});

test("uses 80 characters by default", () => {
  assert.equal(check(["y".repeat(81)]).length, 1);
  assert.equal(check(["y".repeat(40)]).length, 0);
});
`,
  "test/lint.test.js": `import assert from "node:assert/strict";
import { test } from "node:test";
import { lint } from "../src/index.js";

test("runs every rule and sorts problems by line", () => {
  const text = ["# Title", "#### Deep  ", "z".repeat(90)].join("\\n");
  assert.deepEqual(
    lint(text).map((p) => p.rule),
    ["heading-increment", "trailing-spaces", "line-length"],
  );
});

test("a rule can be disabled", () => {
  assert.deepEqual(lint("z".repeat(90), { "line-length": false }), []);
});
`,
};
