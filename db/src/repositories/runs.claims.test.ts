import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createTestDatabase, insertIssue, insertUser } from "../../test/testing";
import * as runs from "./runs";
import * as steps from "./steps.repository";
import { reserveSpend } from "./spend.repository";

const { db } = await createTestDatabase();

const detail = (info: string) => ({ files: [], info: [info], warnings: [] });
const proposal = {
  analysis: "The pattern misses tabs.",
  proposedSolution: "Match [ \\t]+$.",
  model: "Llama 3.3 70B",
  confidence: 80,
  filesChanged: [{ filename: "a.js", action: "modify" as const, content: "b", originalContent: "a" }],
  metadata: { repository: "hubot/markdown-lint", riskScore: 10 },
  baseCommitSha: "abc123",
  feedback: null,
};

async function queuedRun(): Promise<{ runId: string; userId: string; issueId: string }> {
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
  return { runId, userId, issueId: issue.id };
}

/** What a late writer could change: the run's row, its steps, its ledger rows. */
async function stateOf(runId: string) {
  const run = await db
    .selectFrom("solve_runs")
    .select(["status", "current_step", "error_code", "solution_id", "quota_state", "claim_token"])
    .where("id", "=", runId)
    .executeTakeFirstOrThrow();
  const stepRows = await db
    .selectFrom("run_steps")
    .select(["step", "status", "detail", "estimate_usd", "output"])
    .where("run_id", "=", runId)
    .orderBy("step")
    .execute();
  const ledger = await db
    .selectFrom("model_requests")
    .select(["id", "state", "reserved_usd"])
    .where("run_id", "=", runId)
    .orderBy("id")
    .execute();
  return { run, stepRows, ledger };
}

describe("a run's claim fences its writes", () => {
  it("a worker whose run was claimed by another while it still ran changes nothing: status, steps and ledger stay the new holder's", async () => {
    const { runId, userId } = await queuedRun();
    const first: runs.RunClaim = { runId, token: randomUUID() };
    const second: runs.RunClaim = { runId, token: randomUUID() };
    expect(await runs.claim(db, runId, first.token)).toMatchObject({ status: "running", claim_token: first.token });
    await steps.markRunning(db, first, "analyzing", detail("first started"));

    // The first worker's lock lapsed: the second takes the job over and claims the run anew.
    expect(await runs.claim(db, runId, second.token)).toMatchObject({ status: "running", attempts: 2 });
    await steps.markRunning(db, second, "analyzing", detail("second started"));
    await steps.storeProgress(db, second, "analyzing", detail("second's progress"));
    const before = await stateOf(runId);

    // Every late write of the first worker is refused as a lost claim.
    const late: Array<[string, () => Promise<unknown>]> = [
      ["markRunning", () => steps.markRunning(db, first, "context", detail("first's late step"))],
      ["storeProgress", () => steps.storeProgress(db, first, "analyzing", detail("first's late progress"))],
      [
        "storePrompt",
        () =>
          steps.storePrompt(db, first, "analyzing", { system: "s", user: "u", estimate: { usd: 9 } } as Parameters<
            typeof steps.storePrompt
          >[3]),
      ],
      [
        "storeResult",
        () => steps.storeResult(db, first, "analyzing", { detail: detail("first's result"), output: {} }, new Date()),
      ],
      ["markFailed", () => steps.markFailed(db, first, "analyzing", detail("first failed it"))],
      [
        "copyCompleted",
        () => steps.copyCompleted(db, first, [{ step: "context", detail: detail("copied"), output: {} }]),
      ],
      [
        "end failed",
        () => runs.end(db, { id: runId, issue_id: "", kind: "solve" }, "failed", { code: "x", message: "x" }, first),
      ],
      [
        "end cancelled",
        () => runs.end(db, { id: runId, issue_id: "", kind: "solve" }, "cancelled", { code: "x", message: "x" }, first),
      ],
      ["finish", () => runs.finish(db, first, proposal)],
      [
        "reserveSpend",
        () =>
          reserveSpend(db, {
            runId,
            userId,
            step: "analyzing",
            purpose: "analysis",
            modelId: "m",
            attempt: 1,
            worstUsd: 0.5,
            periodStart: new Date("2026-11-01"),
            defaults: {},
            claim: first,
          }),
      ],
    ];
    for (const [name, write] of late) await expect(write(), name).rejects.toBeInstanceOf(runs.ClaimLost);
    expect(await stateOf(runId)).toEqual(before);
    expect(before.run).toMatchObject({ status: "running", current_step: "analyzing", claim_token: second.token });
    expect(before.ledger).toEqual([]);

    // The new holder's writes land, and it ends the run once.
    const solutionId = await runs.finish(db, second, proposal);
    expect((await stateOf(runId)).run).toMatchObject({ status: "completed", solution_id: solutionId });
    // Even a repeat of the new holder's end is not the first worker's to announce.
    await expect(runs.finish(db, first, proposal)).rejects.toBeInstanceOf(runs.ClaimLost);
  });

  it("a claim given up (its lock lost) fences its holder's writes before any other worker claims the run", async () => {
    const { runId } = await queuedRun();
    const claim: runs.RunClaim = { runId, token: randomUUID() };
    await runs.claim(db, runId, claim.token);
    await steps.markRunning(db, claim, "analyzing");
    expect(await runs.releaseClaim(db, claim)).toBe(true);
    expect(await runs.releaseClaim(db, claim)).toBe(false);
    await expect(steps.markFailed(db, claim, "analyzing", detail("cancelled"))).rejects.toBeInstanceOf(runs.ClaimLost);
    await expect(
      runs.end(db, { id: runId, issue_id: "", kind: "solve" }, "cancelled", { code: "x", message: "x" }, claim),
    ).rejects.toBeInstanceOf(runs.ClaimLost);
    expect((await stateOf(runId)).run).toMatchObject({ status: "running", quota_state: "reserved", claim_token: null });
    expect((await stateOf(runId)).stepRows.map((s) => s.status)).toEqual(["running"]);
  });
});
