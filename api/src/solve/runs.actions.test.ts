import { describe, expect, it } from "vitest";
import { type ActionViews, RunView } from "@fixloop/contract";
import { insertIssue, insertPullRequest, insertRun, seedSolution } from "@fixloop/testkit";
import { readSse } from "../../test/sse.testkit";
import { createTestApp, errorOf } from "../../test/testing";

// The solve page decides its controls (Resume, a new solve) from the run's view: it serves the
// actions of the run's issue as the issue's own view does, and the entry points refuse with the
// very code and reason it served.
const t = await createTestApp();
const me = await t.loginAs();
const api = t.client(me.headers);
const MOVED = "https://github.com/octocat/elsewhere/issues/7";

/** A run a spending cap stopped (the one kind a Resume takes), of a new issue of the user's. */
async function capStopped(number: number, repo = "octocat/todo-api") {
  const issue = await insertIssue(t.db, me.user.id, { repo, number });
  const run = await insertRun(t.db, {
    user_id: me.user.id,
    issue_id: issue.id,
    status: "failed",
    error_code: "cost.run_cap_exceeded",
    error_message: "The run would pass its cap",
    quota_state: "released",
  });
  return { issueId: issue.id, runId: run.id };
}

/** The run's actions as its read serves them and as its stream's snapshot does (checked against the wire schema). */
async function runActions(runId: string): Promise<ActionViews> {
  const res = await api.runs[":id"].$get({ param: { id: runId } });
  if (res.status !== 200) throw new Error(`run read answered ${res.status}`);
  const read = (await res.json()).run.actions;
  const events = await readSse(await t.app.request(`/api/runs/${runId}/events`, { headers: me.headers }));
  expect(events[0]?.event).toBe("snapshot");
  expect(RunView.parse(events[0]?.data).actions).toEqual(read);
  return read;
}

async function issueActions(issueId: string): Promise<ActionViews> {
  const res = await api.issues[":id"].$get({ param: { id: issueId } });
  if (res.status !== 200) throw new Error(`issue read answered ${res.status}`);
  return (await res.json()).issue.actions;
}

const ALL_ALLOWED = Object.fromEntries(
  ["solve", "resume", "refine", "address", "approve", "push"].map((a) => [a, { allowed: true }]),
);

describe("a run's view", () => {
  it("serves its issue's actions, all allowed for an issue that stands clear, as the issue's view does", async () => {
    const { issueId, runId } = await capStopped(801);
    expect(await runActions(runId)).toEqual(ALL_ALLOWED);
    expect(await issueActions(issueId)).toEqual(ALL_ALLOWED);
  });

  it("refuses a resume of an issue transferred on GitHub with where it went, and the Resume is refused with those words", async () => {
    const { issueId, runId } = await capStopped(802);
    await t.db
      .updateTable("issues")
      .set({ status: "closed", state: "closed", gone: "transferred", moved_to: MOVED })
      .where("id", "=", issueId)
      .execute();
    const actions = await runActions(runId);
    expect(actions.resume).toEqual({
      allowed: false,
      code: "issue.transferred",
      reason: `This issue was transferred to another repository on GitHub (${MOVED}); import it from there to solve it`,
      movedTo: MOVED,
    });
    expect(actions.solve).toEqual(actions.resume);
    expect(actions.refine).toEqual({ allowed: true });
    expect(await issueActions(issueId)).toEqual(actions);
    const res = await api.runs[":id"].resume.$post({ param: { id: runId } });
    expect(res.status).toBe(410);
    const refused = actions.resume.allowed ? null : actions.resume;
    expect(await errorOf(res)).toEqual({ code: refused?.code, message: refused?.reason });
  });

  it("refuses a new solve, not a resume, of an issue whose repository left the user's list", async () => {
    // A repository of its own: the user's access row to it is marked as having left the list.
    const { issueId, runId } = await capStopped(803, "octocat/left-behind");
    const { repository_github_id } = await t.db
      .selectFrom("issues")
      .select("repository_github_id")
      .where("id", "=", issueId)
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto("repositories")
      .values({ user_id: me.user.id, github_id: repository_github_id, permission: "admin", left_at: new Date() })
      .execute();
    const actions = await runActions(runId);
    expect(actions.solve).toMatchObject({ allowed: false, code: "repository.access_lost" });
    expect(actions.resume).toEqual({ allowed: true });
    expect(actions.refine).toMatchObject({ allowed: false, code: "repository.access_lost" });
    expect(await issueActions(issueId)).toEqual(actions);
  });

  it("refuses a new solve of an issue with an open pull request of Fixloop's, as the issue's view does", async () => {
    const { issueId, solutionId } = await seedSolution(t.db, {
      userId: me.user.id,
      repoFullName: "octocat/todo-api",
      issueNumber: 804,
      status: "approved",
      files: [{ filename: "README.md", action: "modify", originalContent: "a\n", content: "b\n" }],
    });
    await insertPullRequest(t.db, {
      userId: me.user.id,
      solutionId,
      issueId,
      base: "octocat/todo-api",
      head: "octocat/todo-api",
      issueNumber: 804,
    });
    const run = await insertRun(t.db, {
      user_id: me.user.id,
      issue_id: issueId,
      status: "completed",
      solution_id: solutionId,
      quota_state: "charged",
    });
    const actions = await runActions(run.id);
    expect(actions.solve).toMatchObject({ allowed: false, code: "issue.pull_request_open" });
    expect(actions.approve).toMatchObject({ allowed: false, code: "issue.pull_request_open" });
    expect(actions.resume).toEqual({ allowed: true });
    expect(await issueActions(issueId)).toEqual(actions);
    // Closed afterwards: the open pull request no longer refuses anything.
    await t.db.updateTable("pull_requests").set({ status: "closed" }).where("issue_id", "=", issueId).execute();
    expect((await runActions(run.id)).solve).toEqual({ allowed: true });
  });
});
