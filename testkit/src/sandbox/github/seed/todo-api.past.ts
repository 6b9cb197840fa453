import type { SeedClosedPull } from "./seed.types";
import { TODO_API_FILES } from "./todo-api.files";
import { TODO_API_SRC } from "./todo-api.src";

const FILES: Record<string, string> = { ...TODO_API_FILES, ...TODO_API_SRC };

/** A file of the default branch with each `[now, then]` undone: how it read before a past fix. */
function before(path: string, edits: [string, string][]): string {
  let text = FILES[path];
  if (text === undefined) throw new Error(`todo-api has no ${path}`);
  for (const [now, then] of edits) {
    if (text.split(now).length !== 2) throw new Error(`${path}: "${now}" must occur once`);
    text = text.replace(now, then);
  }
  return text;
}

/**
 * Issue #1 "Add DELETE /todos/:id": the store could not remove a todo. The pull request's own test
 * ("updates and removes a todo") fails at its base commit and passes with its change.
 */
const DELETE_TODO: SeedClosedPull = {
  title: "Add DELETE /todos/:id",
  body: "`DELETE /todos/:id` answers 204, or 404 for an unknown id; `TodoStore.remove()` does the work.\n\nFixes #1",
  user: "hubot",
  branch: "delete-todo",
  createdAt: "2023-10-04T10:00:00Z",
  closedAt: "2023-10-05T09:39:00Z",
  merged: true,
  before: {
    "src/store.ts": before("src/store.ts", [
      ["\n  remove(id: number): boolean {\n    return this.todos.delete(id);\n  }\n", ""],
    ]),
    "src/server.ts": before("src/server.ts", [
      [
        '    if (id !== undefined && req.method === "DELETE") {\n      return store.remove(id) ? send(res, 204) : send(res, 404, { error: "not found" });\n    }\n',
        "",
      ],
    ]),
    "test/store.test.js": before("test/store.test.js", [
      ['test("updates and removes a todo"', 'test("updates a todo"'],
      ["  assert.equal(store.remove(todo.id), true);\n  assert.equal(store.get(todo.id), undefined);\n", ""],
    ]),
  },
};

/**
 * Issue #2 "Server crashes on a request with invalid JSON": a body that did not parse, or had no
 * title, threw out of the handler. The pull request's own test ("rejects a missing title") fails at
 * its base commit and passes with its change.
 */
const BAD_BODY: SeedClosedPull = {
  title: "Answer 400 on invalid JSON and 422 on a missing title",
  body: "Invalid JSON answers 400 and a todo without a title 422, instead of an unhandled error.\n\nCloses #2",
  user: "octocat",
  branch: "bad-body",
  createdAt: "2023-11-13T09:00:00Z",
  closedAt: "2023-11-13T16:05:00Z",
  merged: true,
  before: {
    "src/validate.ts": before("src/validate.ts", [
      ['if (typeof title !== "string" || title.length === 0) {', 'if (title === "") {'],
    ]),
    "src/server.ts": before("src/server.ts", [
      ['    if (error instanceof SyntaxError) return send(res, 400, { error: "invalid JSON body" });\n', ""],
    ]),
    "test/validate.test.js": before("test/validate.test.js", [
      [
        'test("rejects a missing title", () => {\n  assert.throws(() => validateTitle(undefined), /title is required/);\n  assert.throws(() => validateTitle(""), /title is required/);\n});\n\n',
        "",
      ],
    ]),
  },
};

/** The repository's past: merged fixes of its closed issues #1 and #2, each with the tests it added. */
export const TODO_API_PAST: SeedClosedPull[] = [DELETE_TODO, BAD_BODY];
