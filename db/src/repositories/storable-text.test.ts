import { describe, expect, it } from "vitest";
import { createTestDatabase, insertIssue, insertUser } from "../../test/testing";
import { storableJson, storableText } from "@fixloop/contract";
import * as runs from "./runs";
import * as steps from "./steps.repository";

const { db } = await createTestDatabase();

async function newRun(): Promise<{ runId: string; issueId: string }> {
  const userId = await insertUser(db);
  const issue = await insertIssue(db, userId);
  const runId = await db.transaction().execute((trx) =>
    runs.create(trx, {
      user_id: userId,
      issue_id: issue.id,
      model_id: "groq/llama",
      kind: "solve",
      quotaPeriodStart: new Date("2026-11-01"),
    }),
  );
  return { runId, issueId: issue.id };
}

const HOSTILE = "out\u0000put \ud800x and \udc00 end";
const STORED = "out\uFFFDput \uFFFDx and \uFFFD end";

describe("text Postgres cannot store", () => {
  it("becomes U+FFFD in text and kept surrogate pairs and escaped backslashes are left alone", () => {
    expect(storableText(HOSTILE)).toBe(STORED);
    expect(storableText("emoji \ud83d\ude00")).toBe("emoji \ud83d\ude00");
    const json = JSON.stringify({ a: HOSTILE, code: 'const nul = "\\u0000";', pair: "\ud83d\ude00" });
    expect(JSON.parse(storableJson(json))).toEqual({ a: STORED, code: 'const nul = "\\u0000";', pair: "\ud83d\ude00" });
  });

  it("is stored as U+FFFD in a step's jsonb detail and output instead of failing the write", async () => {
    const { runId } = await newRun();
    await steps.markRunning(db, runId, "analyzing", { files: [HOSTILE], info: [], warnings: [] });
    await steps.storeResult(
      db,
      runId,
      "analyzing",
      { detail: { files: [], info: [HOSTILE], warnings: [] }, output: { [HOSTILE]: HOSTILE } },
      new Date(),
    );
    const row = await db
      .selectFrom("run_steps")
      .select(["detail", "output", "status"])
      .where("run_id", "=", runId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("completed");
    expect((row.detail as { info: string[] }).info).toEqual([STORED]);
    expect(row.output).toEqual({ [STORED]: STORED });
  });

  it("is stored as U+FFFD in a text column (a run's error message) instead of failing the write", async () => {
    const { runId, issueId } = await newRun();
    expect(
      await runs.end(db, { id: runId, issue_id: issueId, kind: "solve" }, "failed", { code: "x", message: HOSTILE }),
    ).toBe(true);
    const row = await db
      .selectFrom("solve_runs")
      .select("error_message")
      .where("id", "=", runId)
      .executeTakeFirstOrThrow();
    expect(row.error_message).toBe(STORED);
  });
});
