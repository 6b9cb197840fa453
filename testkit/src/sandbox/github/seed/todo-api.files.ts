/** Docs, config and tests of the seeded octocat/todo-api repository. */
import fs from "node:fs";

/** A module hook that erases type syntax, so the tests run on Node 20 offline, with no dependency. */
const TYPESCRIPT_HOOKS = fs.readFileSync(new URL("./todo-api.strip-types.mjs", import.meta.url), "utf8");

const README = `# todo-api

A tiny JSON API for to-do lists, written in TypeScript on Node's built-in \`http\` module.
No framework, no database: todos live in memory, which keeps the code easy to read.

## Running

    npm install
    npm start          # listens on http://localhost:3000

## Endpoints

| Method | Path | Description |
|---|---|---|
| GET | /todos?page=1&perPage=20 | list todos, newest first |
| POST | /todos | create \`{ "title": "Buy milk", "due": "2024-05-01" }\` |
| GET | /todos/:id | one todo |
| PATCH | /todos/:id | update \`title\`, \`done\` or \`due\` |
| DELETE | /todos/:id | remove a todo |

Each todo in a response carries an \`overdue\` flag: true when it is not done and its due day has passed.

## Tests

    npm test

See [CONTRIBUTING.md](CONTRIBUTING.md) before opening a pull request.
`;

export const TODO_API_FILES: Record<string, string> = {
  "scripts/typescript.mjs": `// Runs the TypeScript sources on Node 20 with no install step (used by \`npm test\`).
import { register } from "node:module";

register("./typescript.hooks.mjs", import.meta.url);
`,
  "scripts/typescript.hooks.mjs": TYPESCRIPT_HOOKS,
  "README.md": README,
  "package.json": `{
  "name": "todo-api",
  "version": "1.2.0",
  "private": true,
  "type": "module",
  "scripts": {
    "start": "tsx src/server.ts",
    "test": "node --import ./scripts/typescript.mjs --test test/",
    "typecheck": "tsc --noEmit"
  },
  "devDependencies": {
    "@types/node": "^20.11.0",
    "tsx": "^4.7.0",
    "typescript": "^5.4.0"
  }
}
`,
  "tsconfig.json": `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "NodeNext",
    "moduleResolution": "NodeNext",
    "strict": true,
    "noEmit": true,
    "skipLibCheck": true
  },
  "include": ["src"]
}
`,
  ".gitignore": "node_modules/\ndist/\n.env\n",
  ".github/workflows/ci.yml": `name: CI

on:
  push:
    branches: [main]
  pull_request:

jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - run: npm ci
      - run: npm run typecheck
      - run: npm test
`,
  ".github/pull_request_template.md": `## What does this change?

<!-- One or two sentences. Link the issue it fixes, e.g. "Fixes #12". -->

## How was it tested?

- [ ] \`npm test\` passes
- [ ] Added or updated a test for the change
`,
  "CONTRIBUTING.md": `# Contributing to todo-api

Thanks for helping out!

1. Keep pull requests small: one fix or feature each.
2. Every bug fix comes with a test in \`test/\` that fails without the fix.
3. Run \`npm run typecheck\` and \`npm test\` before pushing.
4. Use the imperative mood in commit messages ("Fix pagination offset", not "Fixed...").
5. Reference the issue in the pull request description ("Fixes #3").
`,
  "test/paginate.test.js": `import assert from "node:assert/strict";
import { test } from "node:test";
import { paginate } from "../src/paginate.js";

const items = Array.from({ length: 45 }, (_, i) => i + 1);

test("returns the first page", () => {
  const page = paginate(items, 1, 20);
  assert.deepEqual(page.items, items.slice(0, 20));
  assert.equal(page.totalPages, 3);
});

test("clamps perPage to the maximum", () => {
  assert.equal(paginate(items, 1, 500).perPage, 100);
});

test("continues page 2 right after page 1", () => {
  const first = paginate(items, 1, 20).items;
  const second = paginate(items, 2, 20).items;
  assert.equal(second[0], (first.at(-1) ?? 0) + 1);
  assert.deepEqual(paginate(items, 3, 20).items, items.slice(40));
});
`,
  "test/validate.test.js": `import assert from "node:assert/strict";
import { test } from "node:test";
import { MAX_TITLE_LENGTH, validateDue, validateTitle } from "../src/validate.js";

test("rejects a missing title", () => {
  assert.throws(() => validateTitle(undefined), /title is required/);
  assert.throws(() => validateTitle(""), /title is required/);
});

test("rejects a title that is too long", () => {
  assert.throws(() => validateTitle("x".repeat(MAX_TITLE_LENGTH + 1)), /at most/);
});

test("accepts a date in YYYY-MM-DD form", () => {
  assert.equal(validateDue("2024-05-01"), "2024-05-01");
  assert.equal(validateDue(null), null);
  assert.throws(() => validateDue("May 1st"), /YYYY-MM-DD/);
});
`,
  "test/store.test.js": `import assert from "node:assert/strict";
import { test } from "node:test";
import { TodoStore } from "../src/store.js";

test("lists todos newest first", () => {
  const store = new TodoStore();
  store.create({ title: "first" });
  store.create({ title: "second" });
  assert.deepEqual(store.list().map((t) => t.title), ["second", "first"]);
});

test("updates and removes a todo", () => {
  const store = new TodoStore();
  const todo = store.create({ title: "write tests" });
  assert.equal(store.update(todo.id, { done: true })?.done, true);
  assert.equal(store.remove(todo.id), true);
  assert.equal(store.get(todo.id), undefined);
});
`,
};
