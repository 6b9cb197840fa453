import { expect } from "vitest";
import { eventually } from "@fixloop/testkit";
import type { Db } from "@fixloop/db";
import type { TestStack } from "./stack";

/** A backtest's status and the error its card shows. */
export const backtestRow = (db: Db, id: string) =>
  db.selectFrom("repository_backtests").select(["status", "error"]).where("id", "=", id).executeTakeFirstOrThrow();

/** Whether the backtest has ended failed: what a test waits for once its job is lost or fails. */
export const backtestFailed = async (db: Db, id: string) => (await backtestRow(db, id)).status === "failed";

/** How a backtest's solve run stands: its status, its error and what became of its quota unit. */
export const runRow = (db: Db, id: string) =>
  db
    .selectFrom("solve_runs")
    .select(["status", "error_code", "error_message", "quota_state"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

/** A backtest ended for running past its limit, by the sweep or by a new backtest asked for. */
export const TIMED_OUT = { status: "failed", error: "The backtest did not finish in time" };

/** How a solve run left running ends with its backtest: failed, its quota unit given back. */
export const RUN_ENDED = {
  status: "failed",
  error_code: "backtest.ended",
  error_message: "The backtest ended before this solve finished",
  quota_state: "released",
};

/**
 * The model's answer that is the known fix of the todo-api fixture's issue #1 ("Add DELETE
 * /todos/:id"): its merged pull request's own change to the store.
 */
export const TODO_REMOVE_FIX = {
  analysis: "TodoStore has no way to remove a todo.",
  proposedSolution: "Add TodoStore.remove().",
  confidence: 80,
  files: [
    {
      filename: "src/store.ts",
      action: "modify" as const,
      edits: [
        {
          search: "  update(id: number, patch: TodoPatch): Todo | undefined {\n",
          replace:
            "  remove(id: number): boolean {\n    return this.todos.delete(id);\n  }\n\n  update(id: number, patch: TodoPatch): Todo | undefined {\n",
        },
      ],
    },
  ],
};

/** todo-api moves to an organisation whose members read its repositories; octocat stays its admin. */
export async function moveTodoApiToAcme(stack: TestStack) {
  const gh = stack.github.control;
  gh.createOrganization("acme", { defaultPermission: "read" });
  gh.addOrgMember("acme", "octocat", "admin");
  gh.addOrgMember("acme", "hubot");
  await gh.transferRepository("octocat", "todo-api", "acme");
}

/** `login` signed in: its JSON headers, its repository list, and acme/todo-api's entry in it. */
export async function signedIn(stack: TestStack, login: string) {
  const me = await stack.signIn(login, { scopes: ["public_repo"] });
  const headers = { ...me.headers, "content-type": "application/json" };
  const res = await stack.app.request("/api/github/repositories", { headers });
  expect(res.status).toBe(200);
  const { repositories } = (await res.json()) as { repositories: { fullName: string; canPush: boolean }[] };
  return { headers, repositories, repository: repositories.find((r) => r.fullName === "acme/todo-api") };
}

/** Starts a backtest of `base` (a repository's API path) with `body` and reads its answer until it ends. */
export async function backtestToEnd(
  stack: TestStack,
  base: string,
  headers: Record<string, string>,
  body: { issues: number; solve: boolean },
) {
  const res = await stack.app.request(`${base}/backtest`, { method: "POST", headers, body: JSON.stringify(body) });
  expect(res.status).toBe(202);
  return eventually(
    async () => {
      const read = await stack.app.request(`${base}/backtest`, { headers });
      expect(read.status).toBe(200);
      const got = (await read.json()) as { card: any; latest: any };
      return ["done", "failed"].includes(got.latest?.status) ? got : false;
    },
    { what: `the backtest of ${base} to end`, timeout: 90_000, interval: 100 },
  );
}

/** Steps 1–3 a backtest's solve run is started with, for a test that starts one itself (no job solves it). */
export const LOCALIZED = (["analyzing", "context", "dependencies"] as const).map((step) => ({
  step,
  detail: { files: [], info: [], warnings: [] },
  output: { localizedBy: "test" },
}));
