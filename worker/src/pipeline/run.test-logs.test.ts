import { beforeAll, describe, expect, it } from "vitest";
import { STORED_TEST_LOG_CHARS, type TestsEvent } from "@fixloop/contract";
import { runTestLogs } from "@fixloop/db";
import { createTestDatabase, insertIssue, insertRun, insertUser, type TestDatabase } from "@fixloop/testkit";
import { testLogRecorder } from "./run.test-logs";

let t: TestDatabase;
let runId = "";
beforeAll(async () => {
  t = await createTestDatabase();
  const userId = await insertUser(t.db);
  const issue = await insertIssue(t.db, userId, { repo: "octocat/todo-api", number: 7, title: "Logs" });
  runId = (await insertRun(t.db, { user_id: userId, issue_id: issue.id, status: "running" })).id;
});

const counts = (failed: number) => ({ passed: 3, failed, errored: 0 });
const event = (phase: TestsEvent["phase"], output: string, done: boolean, failed = 0): TestsEvent => ({
  type: "tests",
  phase,
  output,
  counts: counts(failed),
  done,
  at: new Date().toISOString(),
});

describe("a run's stored test log", () => {
  it("keeps each phase's end, bounded, with what was dropped, stored when the phase ends", async () => {
    const keep = testLogRecorder(t.db, runId);
    await keep(event("base", "FIRST-LINE\n", false));
    expect(await runTestLogs.ofRun(t.db, runId)).toEqual([]);
    const chunk = "ok 1 - a line of a long suite\n".repeat(1000);
    for (let i = 0; i < 12; i++) await keep(event("base", chunk, false));
    await keep(event("base", "not ok 2 - the last test\n", true, 1));
    await keep(event("patched", "ok 2 - the last test\n", true));
    const [base, patched, ...rest] = await runTestLogs.ofRun(t.db, runId);
    expect(rest).toEqual([]);
    expect(base?.phase).toBe("base");
    expect(base?.output.length).toBe(STORED_TEST_LOG_CHARS);
    expect(base?.output.endsWith("not ok 2 - the last test\n")).toBe(true);
    expect(base?.output).not.toContain("FIRST-LINE");
    expect((base?.dropped ?? 0) + (base?.output.length ?? 0)).toBe(11 + chunk.length * 12 + 25);
    expect([base?.counts, base?.done]).toEqual([counts(1), true]);
    expect(patched).toEqual({
      phase: "patched",
      output: "ok 2 - the last test\n",
      dropped: 0,
      counts: counts(0),
      done: true,
    });
  });

  it("starts a phase afresh when it streams again after it ended (a retried job), and keeps NUL bytes storable", async () => {
    const keep = testLogRecorder(t.db, runId);
    await keep(event("patched", "first try\n", true));
    await keep(event("patched", "second try \u0000\n", true));
    const patched = (await runTestLogs.ofRun(t.db, runId)).find((p) => p.phase === "patched");
    expect(patched?.output).toBe("second try \uFFFD\n");
  });
});
