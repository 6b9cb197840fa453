import type { Db } from "@fixloop/db";

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
