import { describe, expect, it } from "vitest";
import { issueGoneStop, RUN_CANCELLED } from "@fixloop/contract";
import { createTestDatabase, insertIssue, insertUser, seedRepository } from "../../test/testing";
import type { Db } from "../client";
import * as issues from "./issues.repository";
import { JsonColumnError, solutionMetadata, type RunInput } from "./json-columns";
import * as pullRequests from "./pull-requests.repository";
import * as runs from "./runs";
import * as solutions from "./solutions.repository";

const { db } = await createTestDatabase();
const user = () => insertUser(db);

const statusOf = async (id: string) =>
  (await db.selectFrom("issues").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;

const proposal = (metadata: solutions.Proposal["metadata"] = { repository: "hubot/markdown-lint", riskScore: 10 }) => ({
  analysis: "The pattern misses tabs.",
  proposedSolution: "Match [ \\t]+$.",
  model: "Llama 3.3 70B",
  confidence: 80,
  filesChanged: [{ filename: "a.js", action: "modify" as const, content: "b", originalContent: "a" }],
  metadata,
  baseCommitSha: "abc123",
  feedback: null,
});

async function runningRun(
  d: Db,
  userId: string,
  issueId: string,
  refine?: { solutionId: string; input: RunInput },
): Promise<string> {
  const id = await d.transaction().execute((trx) =>
    runs.create(trx, {
      user_id: userId,
      issue_id: issueId,
      model_id: "groq/llama",
      kind: refine ? "refine" : "solve",
      quotaPeriodStart: new Date("2026-11-01"),
      ...(refine ? { solution_id: refine.solutionId, input: refine.input } : {}),
    }),
  );
  expect(await runs.claim(d, id)).toMatchObject({ status: "running", attempts: 1 });
  return id;
}

describe("issue transitions", () => {
  it("markSolved is one statement that moves only the given issue, and never a closed one", async () => {
    const u = await user();
    const a = await insertIssue(db, u, { number: 1 });
    const b = await insertIssue(db, u, { number: 2 });
    const closed = await insertIssue(db, u, { number: 3 });
    await db.updateTable("issues").set({ status: "closed" }).where("id", "=", closed.id).execute();
    await issues.markSolved(db, a.id);
    await issues.markSolved(db, closed.id);
    expect([await statusOf(a.id), await statusOf(b.id), await statusOf(closed.id)]).toEqual([
      "solved",
      "open",
      "closed",
    ]);
  });

  it("a cancelled analysis returns the issue to open, a failed one marks it failed", async () => {
    const u = await user();
    const a = await insertIssue(db, u, { number: 1 });
    const b = await insertIssue(db, u, { number: 2 });
    await issues.markAnalyzing(db, a.id);
    await issues.markAnalyzing(db, b.id);
    await issues.endAnalysis(db, a.id, "cancelled");
    await issues.endAnalysis(db, b.id, "failed");
    expect([await statusOf(a.id), await statusOf(b.id)]).toEqual(["open", "failed"]);
  });
});

describe("run transitions", () => {
  it("finish stores the solution, completes the run, solves the issue, and answers the same id when repeated", async () => {
    const u = await user();
    const issue = await insertIssue(db, u);
    const runId = await runningRun(db, u, issue.id);
    const solutionId = await runs.finish(db, runId, proposal());
    expect(await runs.finish(db, runId, proposal())).toBe(solutionId);
    expect(await runs.load(db, runId)).toMatchObject({ status: "completed", solution_id: solutionId });
    expect(await statusOf(issue.id)).toBe("solved");
    const s = await db.selectFrom("solutions").selectAll().where("id", "=", solutionId).executeTakeFirstOrThrow();
    expect(solutionMetadata.read(s.metadata)).toMatchObject({ riskScore: 10, refinementCount: 0 });
  });

  it("finish writes nothing for a run flagged for cancel (its issue gone, say): the cancel ends it", async () => {
    const u = await user();
    const issue = await insertIssue(db, u);
    const runId = await runningRun(db, u, issue.id);
    expect(await runs.requestCancel(db, runId)).toBe(true);
    await expect(runs.finish(db, runId, proposal())).rejects.toThrow(/being cancelled/);
    expect(await runs.load(db, runId)).toMatchObject({ status: "running", solution_id: null, quota_state: "reserved" });
    expect(await db.selectFrom("solutions").select("id").where("issue_id", "=", issue.id).execute()).toEqual([]);
    expect(await statusOf(issue.id)).not.toBe("solved");
  });

  it("a queued run ends with the reason of the first request to stop it, whoever ends it, its unit given back once", async () => {
    const u = await user();
    const gone = issueGoneStop("deleted");
    const queuedRun = async (number: number) =>
      db.transaction().execute(async (trx) =>
        runs.create(trx, {
          user_id: u,
          issue_id: (await insertIssue(trx, u, { number })).id,
          model_id: "groq/llama",
          kind: "solve",
          quotaPeriodStart: new Date("2026-11-01"),
        }),
      );
    const ended = (id: string) =>
      db
        .selectFrom("solve_runs")
        .select(["status", "error_code", "error_message", "quota_state"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();

    // The user's Cancel flags it first; the issue's removal, flagging it next, is the one to end it.
    const cancelledFirst = await queuedRun(51);
    expect(await runs.requestCancel(db, cancelledFirst, RUN_CANCELLED)).toBe(true);
    expect(await runs.requestCancel(db, cancelledFirst, gone)).toBe(true);
    expect(await runs.cancelQueued(db, cancelledFirst, gone)).toEqual(RUN_CANCELLED);
    expect(await runs.cancelQueued(db, cancelledFirst, RUN_CANCELLED)).toBeNull();
    expect(await ended(cancelledFirst)).toEqual({
      status: "cancelled",
      error_code: RUN_CANCELLED.code,
      error_message: RUN_CANCELLED.message,
      quota_state: "released",
    });

    // The reverse order keeps the issue's reason.
    const goneFirst = await queuedRun(52);
    expect(await runs.requestCancel(db, goneFirst, gone)).toBe(true);
    expect(await runs.requestCancel(db, goneFirst, RUN_CANCELLED)).toBe(true);
    expect(await runs.cancelQueued(db, goneFirst, RUN_CANCELLED)).toEqual(gone);
    expect(await ended(goneFirst)).toEqual({
      status: "cancelled",
      error_code: gone.code,
      error_message: gone.message,
      quota_state: "released",
    });
  });

  it("end fails a run once and leaves an ended run alone", async () => {
    const u = await user();
    const issue = await insertIssue(db, u);
    const runId = await runningRun(db, u, issue.id);
    await issues.markAnalyzing(db, issue.id);
    const run = { id: runId, issue_id: issue.id, kind: "solve" as const };
    expect(await runs.end(db, run, "failed", { code: "x.y", message: "no" })).toBe(true);
    expect(await runs.end(db, run, "cancelled", { code: "run.cancelled", message: "no" })).toBe(false);
    expect(await runs.load(db, runId)).toMatchObject({ status: "failed", error_code: "x.y" });
    expect(await statusOf(issue.id)).toBe("failed");
    expect(await runs.claim(db, runId)).toBeNull();
  });

  it("failUnqueued fails a run still queued and gives its quota back, and leaves a run a worker claimed alone", async () => {
    const u = await user();
    const quotaOf = (id: string) =>
      db.selectFrom("solve_runs").select(["status", "quota_state"]).where("id", "=", id).executeTakeFirstOrThrow();
    const queued = await db.transaction().execute(async (trx) =>
      runs.create(trx, {
        user_id: u,
        issue_id: (await insertIssue(trx, u, { number: 41 })).id,
        model_id: "groq/llama",
        kind: "solve",
        quotaPeriodStart: new Date("2026-11-01"),
      }),
    );
    expect(await runs.failUnqueued(db, queued)).toBe(true);
    expect(await quotaOf(queued)).toEqual({ status: "failed", quota_state: "released" });
    // The queue took the job though its answer was lost, and a worker claimed the run first.
    const claimed = await runningRun(db, u, (await insertIssue(db, u, { number: 42 })).id);
    expect(await runs.failUnqueued(db, claimed)).toBe(false);
    expect(await quotaOf(claimed)).toEqual({ status: "running", quota_state: "reserved" });
  });

  it("a refinement finishing after its solution was decided or changed writes nothing and charges nothing", async () => {
    const u = await user();
    const issue = await insertIssue(db, u);
    const solutionId = await runs.finish(db, await runningRun(db, u, issue.id), proposal());
    const solution = () =>
      db
        .selectFrom("solutions")
        .select(["status", "revision", "files_changed"])
        .where("id", "=", solutionId)
        .executeTakeFirstOrThrow();
    const before = await solution();
    const input: RunInput = {
      feedback: ["Add a test"],
      manualEdits: [],
      fromRevision: before.revision,
      fromStatus: "pending",
    };
    const refined = {
      ...proposal(),
      filesChanged: [{ filename: "a.js", action: "modify" as const, content: "refined", originalContent: "a" }],
    };
    const set = (v: { status?: "pending" | "approved"; revision?: number }) =>
      db.updateTable("solutions").set(v).where("id", "=", solutionId).execute();

    // Approved while the refinement ran (e.g. stopped by a cap, then resumed): the approved files stay.
    const runId = await runningRun(db, u, issue.id, { solutionId, input });
    await set({ status: "approved" });
    await expect(runs.finish(db, runId, refined)).rejects.toThrow(/was approved after this refinement started/);
    await set({ status: "pending", revision: before.revision + 1 });
    // A hand edit made a revision the refinement did not start from: the edit stays.
    await expect(runs.finish(db, runId, refined)).rejects.toBeInstanceOf(runs.RefineSuperseded);
    expect(await solution()).toEqual({ ...before, revision: before.revision + 1 });
    expect(await runs.load(db, runId)).toMatchObject({ status: "running", quota_state: "reserved" });

    // The solution as the refinement found it: the result is written.
    await set({ revision: before.revision });
    expect(await runs.finish(db, runId, refined)).toBe(solutionId);
    expect(await solution()).toMatchObject({ revision: before.revision + 1, files_changed: refined.filesChanged });
  });

  it("a solution metadata of the wrong shape is refused and nothing is written", async () => {
    const u = await user();
    const issue = await insertIssue(db, u);
    const runId = await runningRun(db, u, issue.id);
    const bad = proposal({ riskScore: "high" as unknown as number });
    await expect(runs.finish(db, runId, bad)).rejects.toBeInstanceOf(JsonColumnError);
    expect(await runs.load(db, runId)).toMatchObject({ status: "running", solution_id: null });
    expect(await db.selectFrom("solutions").select("id").where("issue_id", "=", issue.id).execute()).toEqual([]);
    expect(await statusOf(issue.id)).toBe("open");
  });
});

describe("solution transitions", () => {
  async function solved() {
    const u = await user();
    const issue = await insertIssue(db, u);
    const solutionId = await runs.finish(db, await runningRun(db, u, issue.id), proposal());
    return { u, issue, solution: { id: solutionId, issue_id: issue.id } };
  }

  it("rejecting records the decision and opens the issue again", async () => {
    const { u, issue, solution } = await solved();
    await db.transaction().execute((trx) => solutions.decide(trx, solution, u, { status: "rejected", comments: "no" }));
    expect(await statusOf(issue.id)).toBe("open");
    const d = await db.selectFrom("validation_decisions").select(["status", "comments"]).execute();
    expect(d).toContainEqual({ status: "rejected", comments: "no" });
  });

  it("deleting the only answer reopens the issue; a pull request moves both to pr_created", async () => {
    const first = await solved();
    await db.transaction().execute((trx) => solutions.remove(trx, first.solution));
    expect(await statusOf(first.issue.id)).toBe("open");

    const second = await solved();
    await pullRequests.record(db, {
      userId: second.u,
      solutionId: second.solution.id,
      issueId: second.issue.id,
      base: { github_id: await seedRepository(db, "hubot/markdown-lint"), full_name: "hubot/markdown-lint" },
      head: { github_id: await seedRepository(db, "hubot/markdown-lint"), full_name: "hubot/markdown-lint" },
      number: 7,
      title: "Fix",
      body: "",
      branch: "fixloop/7",
      baseBranch: "main",
      status: "open",
      htmlUrl: "https://github.com/hubot/markdown-lint/pull/7",
      metadata: { labels: ["bug"] },
    });
    expect(await statusOf(second.issue.id)).toBe("pr_created");
    const s = await db.selectFrom("solutions").select("status").where("id", "=", second.solution.id).executeTakeFirst();
    expect(s?.status).toBe("pr_created");
  });
});

describe("JSON columns", () => {
  it("read old rows leniently: missing or mistyped fields are absent, unknown ones kept", () => {
    expect(solutionMetadata.read(null)).toEqual({});
    expect(solutionMetadata.read({ riskScore: "7", blocked: [], legacy: 1 })).toEqual({
      riskScore: undefined,
      blocked: [],
      legacy: 1,
    });
  });

  it("refuse a write of the wrong shape with the column named", () => {
    expect(() => solutionMetadata.write({ manualEdits: [{ filename: 3 as unknown as string }] })).toThrow(
      /solutions\.metadata has the wrong shape/,
    );
  });
});
