import { describe, expect, it } from "vitest";
import { createTestDatabase, insertIssue, insertUser, seedRepository } from "../../test/testing";
import type { FileChange } from "@fixloop/contract";
import * as issues from "./issues.repository";
import { filesChanged, issueAssignees, issueLabels, runInput, stepPrompt, webhookPayload } from "./json-columns";
import { recordWebhookEvent } from "./payments.repository";
import * as repositories from "./repositories.repository";
import * as runs from "./runs";
import * as solutions from "./solutions.repository";
import * as steps from "./steps.repository";

const { db } = await createTestDatabase();
const user = () => insertUser(db);

/** The write is refused as malformed JSON (and, checked by each caller, nothing changed). */
async function refused(write: Promise<unknown>): Promise<void> {
  await expect(write).rejects.toMatchObject({ code: "db.invalid_json" });
}

/** A wrongly typed value, as untyped code could pass it. */
const wrong = <T>(value: unknown) => value as T;

async function run(userId: string, issueId: string): Promise<string> {
  return db.transaction().execute((trx) =>
    runs.create(trx, {
      user_id: userId,
      issue_id: issueId,
      model_id: "groq/llama",
      kind: "solve",
      quotaPeriodStart: new Date("2026-11-01"),
    }),
  );
}

const synced = (labels: string[], assignees: string[]): issues.GithubIssueColumns => ({
  github_id: 1,
  issue_number: 40,
  title: "Tabs",
  body: null,
  labels,
  state: "open",
  html_url: "https://github.com/hubot/markdown-lint/issues/40",
  author_login: "hubot",
  is_locked: false,
  assignees,
  github_created_at: "2026-11-01T00:00:00Z",
  github_updated_at: "2026-11-01T00:00:00Z",
});

describe("issue labels and assignees", () => {
  it("a label that is not a name is refused and no issue is written", async () => {
    const u = await user();
    const repo = { id: null, githubId: await seedRepository(db, "hubot/markdown-lint") };
    await refused(issues.upsertSynced(db, u, repo, [synced(wrong([{ name: "bug" }]), ["hubot"])]));
    await refused(issues.upsertSynced(db, u, repo, [synced(["bug"], wrong([7]))]));
    expect(await db.selectFrom("issues").select("id").where("user_id", "=", u).execute()).toEqual([]);
    await issues.upsertSynced(db, u, repo, [synced(["bug"], ["hubot"])]);
    const row = await db.selectFrom("issues").select(["labels", "assignees"]).where("user_id", "=", u).execute();
    expect(row).toEqual([{ labels: ["bug"], assignees: ["hubot"] }]);
  });

  it("older rows holding GitHub's label and user objects read as names", async () => {
    const u = await user();
    const issue = await insertIssue(db, u);
    await db
      .updateTable("issues")
      .set({ labels: JSON.stringify([{ name: "bug" }, 3]), assignees: JSON.stringify([{ login: "octocat" }]) })
      .where("id", "=", issue.id)
      .execute();
    const row = await db.selectFrom("issues").selectAll().where("id", "=", issue.id).executeTakeFirstOrThrow();
    expect([issueLabels.read(row.labels), issueAssignees.read(row.assignees)]).toEqual([["bug"], ["octocat"]]);
  });
});

describe("files_changed", () => {
  const file: FileChange = { filename: "a.js", action: "modify", content: "b", originalContent: "a" };
  const proposal = (files: FileChange[]) => ({
    analysis: "The pattern misses tabs.",
    proposedSolution: "Match [ \\t]+$.",
    model: "Llama 3.3 70B",
    confidence: 80,
    filesChanged: files,
    metadata: {},
    baseCommitSha: null,
    feedback: null,
  });

  it("a changed file without its contents is refused and the run stays unfinished", async () => {
    const u = await user();
    const issue = await insertIssue(db, u);
    const runId = await run(u, issue.id);
    await runs.claim(db, runId);
    await refused(runs.finish(db, runId, proposal([wrong({ filename: "a.js", action: "modify" })])));
    await refused(runs.finish(db, runId, proposal([{ ...file, action: wrong("rename") }])));
    expect(await runs.load(db, runId)).toMatchObject({ status: "running", solution_id: null });
    expect(await db.selectFrom("solutions").select("id").where("issue_id", "=", issue.id).execute()).toEqual([]);
    const solutionId = await runs.finish(db, runId, proposal([file]));
    const revisions = await db
      .selectFrom("solution_revisions")
      .select("files_changed")
      .where("solution_id", "=", solutionId)
      .execute();
    expect(revisions.map((r) => filesChanged.read(r.files_changed))).toEqual([[file]]);
  });

  it("an older revision with files lacking their action or original contents still reads", async () => {
    const u = await user();
    const issue = await insertIssue(db, u);
    const runId = await run(u, issue.id);
    await runs.claim(db, runId);
    const solutionId = await runs.finish(db, runId, proposal([file]));
    await db
      .updateTable("solution_revisions")
      .set({ files_changed: JSON.stringify([{ filename: "a.js", content: "b" }, "junk", { action: "create" }]) })
      .where("solution_id", "=", solutionId)
      .execute();
    const row = await db
      .selectFrom("solution_revisions")
      .select("files_changed")
      .where("solution_id", "=", solutionId)
      .executeTakeFirstOrThrow();
    expect(filesChanged.read(row.files_changed)).toEqual([
      { filename: "a.js", action: "modify", content: "b", originalContent: "" },
    ]);
  });

  it("a manual edit of the wrong shape is refused and the solution keeps its revision", async () => {
    const u = await user();
    const issue = await insertIssue(db, u);
    const runId = await run(u, issue.id);
    await runs.claim(db, runId);
    const id = await runs.finish(db, runId, proposal([file]));
    const solution = { id, revision: 1, analysis: "", proposed_solution: "" };
    const edit = { filesChanged: [{ ...file, content: wrong<string>(null) }], metadata: {}, reason: "typo" };
    await refused(db.transaction().execute((trx) => solutions.recordManualEdit(trx, solution, edit)));
    const s = await db.selectFrom("solutions").select("revision").where("id", "=", id).executeTakeFirstOrThrow();
    expect(s.revision).toBe(1);
  });

  it("a kept revision of the wrong shape is refused and no revision is added", async () => {
    const u = await user();
    const issue = await insertIssue(db, u);
    const runId = await run(u, issue.id);
    await runs.claim(db, runId);
    const id = await runs.finish(db, runId, proposal([file]));
    const s = { id, revision: 2, refinement_count: 1, analysis: "", proposed_solution: "", run_id: runId };
    const files = [{ ...file, filename: "" }];
    await refused(
      db.transaction().execute((trx) => solutions.keepCurrentRevision(trx, { ...s, files_changed: files })),
    );
    const revisions = await db
      .selectFrom("solution_revisions")
      .select("revision")
      .where("solution_id", "=", id)
      .execute();
    expect(revisions).toEqual([{ revision: 1 }]);
  });
});

describe("run input", () => {
  it("a refinement request that is not a list is refused and no run is created", async () => {
    const u = await user();
    const issue = await insertIssue(db, u);
    const create = db.transaction().execute((trx) =>
      runs.create(trx, {
        user_id: u,
        issue_id: issue.id,
        model_id: "groq/llama",
        kind: "refine",
        quotaPeriodStart: new Date("2026-11-01"),
        input: { feedback: wrong("shorter please") },
      }),
    );
    await refused(create);
    expect(await db.selectFrom("solve_runs").select("id").where("issue_id", "=", issue.id).execute()).toEqual([]);
  });

  it("an older input with a field of another shape reads without it", async () => {
    const u = await user();
    const issue = await insertIssue(db, u);
    const runId = await run(u, issue.id);
    await db
      .updateTable("solve_runs")
      .set({ input: JSON.stringify({ feedback: "one", manualEdits: [{ filename: "a.js" }], fromRevision: 2 }) })
      .where("id", "=", runId)
      .execute();
    const r = await runs.load(db, runId);
    expect(runInput.read(r?.input)).toEqual({ manualEdits: [{ filename: "a.js" }], fromRevision: 2 });
  });
});

describe("run steps", () => {
  async function runningStep() {
    const u = await user();
    const issue = await insertIssue(db, u);
    const runId = await run(u, issue.id);
    await steps.markRunning(db, runId, "analyzing");
    return runId;
  }
  const detail = { files: [], info: ["ok"], warnings: [] };
  const stepRow = (runId: string) =>
    db.selectFrom("run_steps").selectAll().where("run_id", "=", runId).executeTakeFirstOrThrow();

  it("a detail of the wrong shape is refused and no step starts", async () => {
    const u = await user();
    const issue = await insertIssue(db, u);
    const runId = await run(u, issue.id);
    await refused(steps.markRunning(db, runId, "analyzing", { ...detail, files: wrong("a.js") }));
    expect(await db.selectFrom("run_steps").select("step").where("run_id", "=", runId).execute()).toEqual([]);
    expect(await runs.load(db, runId)).toMatchObject({ current_step: null });
  });

  it("an output that is not an object or a prompt of the wrong shape is refused and the step is left as it was", async () => {
    const runId = await runningStep();
    const before = await stepRow(runId);
    await refused(steps.storeResult(db, runId, "analyzing", { detail, output: wrong([]), costUsd: 1 }, new Date()));
    await refused(steps.storeResult(db, runId, "analyzing", { detail: wrong({ files: [] }), output: {} }, new Date()));
    await refused(
      steps.storePrompt(db, runId, "analyzing", {
        system: wrong(5),
        estimate: { tokensIn: 1, tokensOut: 1, usd: 0.1 },
      }),
    );
    await refused(steps.storeProgress(db, runId, "analyzing", { ...detail, score: wrong("high") }));
    expect(await stepRow(runId)).toEqual(before);
    expect(await runs.load(db, runId)).toMatchObject({ cost_usd: "0.000000" });
  });

  it("older steps with missing lists, a list output or another prompt still read", async () => {
    const runId = await runningStep();
    await db
      .updateTable("run_steps")
      .set({
        detail: JSON.stringify({ files: ["a.js"], score: "high", tests: { status: "passed" } }),
        output: JSON.stringify(["old"]),
        prompt: JSON.stringify({ system: "s", user: 5 }),
      })
      .where("run_id", "=", runId)
      .execute();
    const step = (await steps.load(db, runId)).get("analyzing");
    expect(step?.detail).toEqual({ files: ["a.js"], info: [], warnings: [], tests: { status: "passed" } });
    expect(stepPrompt.read(step?.prompt)).toEqual({ system: "s" });
  });
});

describe("repository test settings", () => {
  it("settings of the wrong shape are refused and the stored ones are kept; another stored shape reads as none", async () => {
    const u = await user();
    const repo = await repositories.upsertSynced(db, u, {
      github_id: 100,
      owner: "hubot",
      name: "markdown-lint",
      full_name: "hubot/markdown-lint",
      description: null,
      is_private: false,
      is_fork: false,
      language: null,
      html_url: "https://github.com/hubot/markdown-lint",
      default_branch: "main",
      permission: "admin",
    });
    const settings = { command: "npm test", setup: null, timeoutSeconds: 60, setupNetwork: false };
    await repositories.saveTestSettings(db, repo.id, settings);
    await refused(repositories.saveTestSettings(db, repo.id, { ...settings, timeoutSeconds: wrong("1m") }));
    expect(await repositories.findWithTestSettings(db, u, "Hubot/Markdown-Lint")).toEqual({
      id: repo.id,
      testSettings: settings,
    });
    await db.updateTable("repositories").set({ test_settings: '{"cmd":"make"}' }).where("id", "=", repo.id).execute();
    expect(await repositories.findWithTestSettings(db, u, "hubot/markdown-lint")).toEqual({
      id: repo.id,
      testSettings: null,
    });
  });
});

describe("webhook payload", () => {
  it("a payload that is not an object is refused and the event is not stored; an older one reads as null", async () => {
    const event = { eventId: `evt_${Date.now()}`, provider: "razorpay", type: "payment.captured" };
    await refused(recordWebhookEvent(db, { ...event, payload: wrong("captured") }));
    expect(
      await db.selectFrom("webhook_events").select("event_id").where("event_id", "=", event.eventId).execute(),
    ).toEqual([]);
    expect(await recordWebhookEvent(db, { ...event, payload: { event: "payment.captured" } })).toBe(true);
    await db
      .updateTable("webhook_events")
      .set({ payload: '"captured"' })
      .where("event_id", "=", event.eventId)
      .execute();
    const row = await db
      .selectFrom("webhook_events")
      .select("payload")
      .where("event_id", "=", event.eventId)
      .executeTakeFirstOrThrow();
    expect(webhookPayload.read(row.payload)).toBeNull();
  });
});
