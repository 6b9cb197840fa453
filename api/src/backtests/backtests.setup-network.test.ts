import { execFileSync } from "node:child_process";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGithubClient } from "@fixloop/runtime";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { createTestStack, type TestStack } from "../../test/stack";
import { pushFiles } from "../../test/tests-run.testkit";
import { backtestToEnd, moveTodoApiToAcme, signedIn, TODO_REMOVE_FIX } from "../../test/backtests.testkit";

// A repository's .fixloop.yml asks for network during setup. Only a repository the user can push to
// is the user's own; one they can only read (an organisation's, read base permission) is written by
// others, and its backtest's solve sets up without network unless the user grants it.
let stack: TestStack;
let models: ModelSandbox;
let registry: http.Server;
/** Every request that reached the package registry stand-in: only a networked setup gets there. */
const hits: string[] = [];
let issueNumber = 0;

const TITLE = "Remove a todo from the store";
const REMOVE_METHOD = "\n  remove(id: number): boolean {\n    return this.todos.delete(id);\n  }\n";
const REMOVE_TEST = `import assert from "node:assert/strict";
import { test } from "node:test";
import { TodoStore } from "../src/store.ts";

test("removes a todo", () => {
  const store = new TodoStore();
  const todo = store.create({ title: "a" });
  assert.equal(store.remove(todo.id), true);
  assert.equal(store.get(todo.id), undefined);
});
`;

beforeAll(async () => {
  registry = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    res.end("ok");
  });
  await new Promise<void>((r) => registry.listen(0, "127.0.0.1", r));
  const port = (registry.address() as { port: number }).port;
  models = await startModelSandbox();
  stack = await createTestStack({
    workers: ["sync", "backtest", "solve"],
    env: { ...models.env, SANDBOX_ALLOWED_HOSTS: `127.0.0.1:${port}` },
  });
  await moveTodoApiToAcme(stack);
  const gh = stack.github.control;

  // A past fix whose base commit has a .fixloop.yml asking for network: its setup calls the registry
  // through the sandbox's proxy (and goes on quietly when it cannot).
  const store = execFileSync("git", ["--git-dir", gh.gitDir("acme", "todo-api"), "show", "HEAD:src/store.ts"], {
    encoding: "utf8",
  });
  expect(store.split(REMOVE_METHOD)).toHaveLength(2);
  const setup = `node -e "require('http').get({host:'127.0.0.1',port:3128,path:'http://127.0.0.1:${port}/from-setup'},r=>r.resume()).on('error',()=>{})"`;
  pushFiles(
    stack,
    "acme",
    "todo-api",
    {
      ".fixloop.yml": `test: npm test\nsetup: ${JSON.stringify(setup)}\nnetwork: true\n`,
      "src/store.ts": store.replace(REMOVE_METHOD, ""),
    },
    "Set up through the package registry",
  );
  [issueNumber = 0] = gh.addIssues("acme", "todo-api", [
    { title: TITLE, body: "TodoStore cannot remove a todo.", user: "octocat" },
  ]);
  const repo = { owner: "acme", repo: "todo-api" };
  const g = createGithubClient({ baseUrl: stack.github.url, token: gh.issueToken("octocat", ["public_repo"]) });
  const main = await g.rest.git.getRef({ ...repo, ref: "heads/main" });
  const parent = await g.rest.git.getCommit({ ...repo, commit_sha: main.data.object.sha });
  const tree = await g.rest.git.createTree({
    ...repo,
    base_tree: parent.data.tree.sha,
    tree: [
      { path: "src/store.ts", mode: "100644", type: "blob", content: store },
      { path: "test/remove.test.js", mode: "100644", type: "blob", content: REMOVE_TEST },
    ],
  });
  const commit = await g.rest.git.createCommit({
    ...repo,
    message: "Add TodoStore.remove()",
    tree: tree.data.sha,
    parents: [parent.data.sha],
  });
  await g.rest.git.createRef({ ...repo, ref: "refs/heads/remove-todo", sha: commit.data.sha });
  const pull = await g.rest.pulls.create({
    ...repo,
    title: "Add TodoStore.remove()",
    body: `Fixes #${issueNumber}`,
    head: "remove-todo",
    base: "main",
  });
  // Merged by octocat through the API: the issue it fixes is closed by a user (an organisation closes nothing).
  await g.rest.pulls.merge({ ...repo, pull_number: pull.data.number });
  models.control.respondWith((p) => p.includes(TITLE), TODO_REMOVE_FIX);
  // The merge closed the issue it fixes, as completed.
  const closed = await g.rest.issues.get({ ...repo, issue_number: issueNumber });
  expect(closed.data).toMatchObject({ state: "closed", state_reason: "completed" });
}, 60_000);
afterAll(async () => {
  registry?.close();
  await models?.stop();
});

const BASE = "/api/github/repositories/acme/todo-api";

/** Backtests the newest past fix with its solve, and returns that issue's entry on the card. */
async function backtestWithSolve(headers: Record<string, string>) {
  const got = await backtestToEnd(stack, BASE, headers, { issues: 1, solve: true });
  expect(got.latest.error).toBeNull();
  expect(got.card).toMatchObject({ status: "done", solve: true, found: 1, checked: 1, solved: 1 });
  const entry = got.card.issues[0];
  expect(entry.issueNumber).toBe(issueNumber);
  expect(entry.solve.runId).toEqual(expect.any(String));
  return entry;
}

describe("a backtest's .fixloop.yml network (real bubblewrap)", () => {
  it("is not granted in a repository the user can only read, and its card says so; one they can push to still gets it", async () => {
    const hubot = await signedIn(stack, "hubot");
    expect(hubot.repository).toMatchObject({ canPush: false });
    // The card says the solve's setup ran offline for want of the network nobody granted.
    expect((await backtestWithSolve(hubot.headers)).solve.networkNotGranted).toBe(true);
    expect(hits).toEqual([]);

    const octocat = await signedIn(stack, "octocat");
    expect(octocat.repository).toMatchObject({ canPush: true });
    expect((await backtestWithSolve(octocat.headers)).solve.networkNotGranted).toBe(false);
    expect(hits).toContain("/from-setup");
  }, 240_000);
});
