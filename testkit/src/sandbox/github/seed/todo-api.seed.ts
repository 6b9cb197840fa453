import type { SeededFix, SeedRepo } from "./seed.types";
import { TODO_API_FILES } from "./todo-api.files";
import { TODO_API_PAST } from "./todo-api.past";
import { TODO_API_SRC } from "./todo-api.src";

export const TODO_API: SeedRepo = {
  owner: "octocat",
  name: "todo-api",
  description: "A tiny JSON to-do API in TypeScript on node:http",
  language: "TypeScript",
  topics: ["typescript", "nodejs", "rest-api", "todo"],
  private: false,
  defaultBranch: "main",
  createdAt: "2023-09-04T08:12:44Z",
  commits: [{ message: "Initial commit", date: "2023-09-04T08:15:02Z", files: { ...TODO_API_FILES, ...TODO_API_SRC } }],
  // A maintenance line whose tree differs from main: a solve based on it must read and target it.
  branches: [
    {
      name: "release-1.x",
      message: "Start the 1.x maintenance line",
      date: "2023-10-02T09:00:00Z",
      files: {
        "RELEASE-1.x.md": "# todo-api 1.x\n\nSecurity and bug fixes only; new features land on main.\n",
        // A test only this branch has: tests run on main never count it.
        "test/release.test.js": [
          'import assert from "node:assert/strict";',
          'import { readFileSync } from "node:fs";',
          'import { test } from "node:test";',
          "",
          'test("the 1.x line states its support policy", () => {',
          '  assert.match(readFileSync(new URL("../RELEASE-1.x.md", import.meta.url), "utf8"), /bug fixes only/);',
          "});",
          "",
        ].join("\n"),
      },
    },
  ],
  issues: [
    {
      title: "Add DELETE /todos/:id",
      body: "There is no way to remove a todo through the API. A `DELETE /todos/:id` answering 204 (or 404 for an unknown id) would do.",
      labels: ["enhancement"],
      user: "hubot",
      createdAt: "2023-10-02T14:03:11Z",
      state: "closed",
      stateReason: "completed",
      closedAt: "2023-10-05T09:40:00Z",
      comments: 2,
    },
    {
      title: "Server crashes on a request with invalid JSON",
      body: "`curl -X POST localhost:8080/todos -d '{oops'` kills the process with an unhandled SyntaxError. It should answer 400.",
      labels: ["bug"],
      user: "hubot",
      createdAt: "2023-11-12T10:22:31Z",
      state: "closed",
      stateReason: "completed",
      closedAt: "2023-11-13T16:05:47Z",
      comments: 1,
    },
    {
      title: "Pagination skips a todo at every page boundary",
      body: 'With 45 todos and `perPage=20`, page 1 shows todos 45–26 and page 2 starts at 24: todo 25 never appears on any page. The same happens between every pair of pages.\n\n**Steps to reproduce**\n1. Create 45 todos.\n2. `GET /todos?page=1&perPage=20` and `GET /todos?page=2&perPage=20`.\n\n**Expected:** page 2 starts right after the last item of page 1.\n\nThe offset is computed in `paginate()` in `src/paginate.ts`. The test "continues page 2 right after page 1" in `test/paginate.test.js` reproduces it.',
      labels: ["bug", "good first issue"],
      user: "hubot",
      createdAt: "2024-02-19T11:48:09Z",
      state: "open",
      comments: 1,
    },
    {
      title: "Whitespace-only titles are accepted",
      body: 'Creating a todo with `{"title": "   "}` succeeds and stores a blank todo. Leading and trailing spaces are also kept (`"  Buy milk "`).\n\nExpected: a title made only of whitespace is rejected with 422 "title is required", and other titles are stored trimmed. See `validateTitle()` in `src/validate.ts`.',
      labels: ["bug"],
      user: "octocat",
      createdAt: "2024-03-02T17:30:55Z",
      state: "open",
    },
    {
      title: "Todos due today are already marked overdue",
      body: 'A todo with `"due": "2024-03-10"` is reported with `"overdue": true` all day on March 10th. It should only become overdue once the due day has passed (days are compared in UTC).\n\nThe check is `isOverdue()` in `src/due.ts`: it compares the current time against midnight at the start of the due day.',
      labels: ["bug"],
      user: "hubot",
      createdAt: "2024-03-10T09:12:40Z",
      state: "open",
      comments: 3,
    },
    {
      title: "README says port 3000 but the server starts on 8080",
      body: "The Running section of `README.md` says `npm start` listens on http://localhost:3000, but `src/server.ts` uses `PORT` and defaults to 8080. The README should say 8080 and mention the `PORT` variable.",
      labels: ["documentation", "good first issue"],
      user: "hubot",
      createdAt: "2024-03-21T13:01:18Z",
      state: "open",
    },
    {
      title: "Persist todos in SQLite",
      body: "Todos are lost on restart. Could we store them in SQLite?",
      labels: ["enhancement"],
      user: "hubot",
      createdAt: "2024-01-08T08:00:00Z",
      state: "closed",
      stateReason: "not_planned",
      closedAt: "2024-01-09T12:30:00Z",
      comments: 4,
    },
  ],
  failingTests: ["continues page 2 right after page 1"],
  closedPulls: TODO_API_PAST,
};

export const TODO_API_FIXES: SeededFix[] = [
  {
    repo: "octocat/todo-api",
    issueNumber: 3,
    title: "Fix the page offset in paginate()",
    analysis:
      "paginate() adds 1 to the start offset for every page after the first, on the mistaken assumption that the previous page's last item would be repeated. slice(start, end) is end-exclusive, so page n should start exactly at (n - 1) * perPage; the extra 1 drops one item at each boundary.",
    proposedSolution:
      "Compute the start offset as (page - 1) * perPage; the test that pages 1 and 2 are contiguous then passes.",
    files: [
      {
        filename: "src/paginate.ts",
        action: "modify",
        edits: [
          {
            search:
              "  // skip the item already shown at the end of the previous page\n  const start = (current - 1) * size + (current > 1 ? 1 : 0);\n",
            replace: "  const start = (current - 1) * size;\n",
          },
        ],
      },
    ],
  },
  {
    repo: "octocat/todo-api",
    issueNumber: 4,
    title: "Reject blank titles and trim the rest",
    reproduction: {
      filename: "test/blank-title-reproduction.test.js",
      content: `import assert from "node:assert/strict";
import { test } from "node:test";
import { validateTitle } from "../src/validate.js";

test("reproduction: a title of spaces is rejected and the rest is trimmed", () => {
  assert.throws(() => validateTitle("   "), /title is required/);
  assert.equal(validateTitle("  Buy milk "), "Buy milk");
});
`,
    },
    analysis:
      "validateTitle() only checks title.length === 0, so a string of spaces passes, and the untrimmed title is stored as sent.",
    proposedSolution:
      "Trim the title first, reject it when the trimmed value is empty, apply the length limit to the trimmed value and return it.",
    files: [
      {
        filename: "src/validate.ts",
        action: "modify",
        edits: [
          {
            search:
              'export function validateTitle(title: unknown): string {\n  if (typeof title !== "string" || title.length === 0) {\n    throw new ValidationError("title", "title is required");\n  }\n  if (title.length > MAX_TITLE_LENGTH) {',
            replace:
              'export function validateTitle(input: unknown): string {\n  const title = typeof input === "string" ? input.trim() : "";\n  if (title.length === 0) {\n    throw new ValidationError("title", "title is required");\n  }\n  if (title.length > MAX_TITLE_LENGTH) {',
          },
        ],
      },
    ],
  },
  {
    repo: "octocat/todo-api",
    issueNumber: 5,
    title: "Only mark a todo overdue after its due day",
    reproduction: {
      filename: "test/due-today-reproduction.test.js",
      content: `import assert from "node:assert/strict";
import { test } from "node:test";
import { isOverdue } from "../src/due.js";

test("reproduction: a todo due today is not overdue", () => {
  assert.equal(isOverdue("2024-05-01", new Date("2024-05-01T15:00:00Z")), false);
  assert.equal(isOverdue("2024-04-30", new Date("2024-05-01T15:00:00Z")), true);
});
`,
    },
    analysis:
      "isOverdue() turns the due date into midnight UTC at the start of that day and compares it with the current instant, so any time on the due day already counts as overdue.",
    proposedSolution:
      "Compare calendar days: the todo is overdue when its due date is before today's UTC date (YYYY-MM-DD strings compare correctly as text).",
    files: [
      {
        filename: "src/due.ts",
        action: "modify",
        edits: [
          {
            search: "  return new Date(due).getTime() < now.getTime();\n",
            replace:
              "  // compare calendar days (UTC): a todo is overdue once its due day has passed\n  return due < now.toISOString().slice(0, 10);\n",
          },
        ],
      },
    ],
  },
  {
    repo: "octocat/todo-api",
    issueNumber: 6,
    title: "Document the real default port",
    analysis:
      "The README was written when the server listened on 3000; src/server.ts now reads PORT and defaults to 8080.",
    proposedSolution: "Update the Running section to say 8080 and mention the PORT environment variable.",
    files: [
      {
        filename: "README.md",
        action: "modify",
        edits: [
          {
            search: "    npm start          # listens on http://localhost:3000\n",
            replace:
              "    npm start          # listens on http://localhost:8080\n\nSet `PORT` to listen on another port, e.g. `PORT=3000 npm start`.\n",
          },
        ],
      },
    ],
  },
];
