import { describe, expect, it } from "vitest";
import { currentUsagePeriod, repositories } from "@fixloop/db";
import { seedSolution } from "@fixloop/testkit";
import { createTestApp, errorOf } from "../../test/testing";

const REPO = "octocat/todo-api";

/**
 * A pending solution of an issue of a listed repository, of a FREE user who has used 2 of the
 * period's 10 units; `leave()` removes the repository as the repository sync does when GitHub no
 * longer lists it to the user.
 */
async function setup() {
  const t = await createTestApp();
  const me = await t.loginAs();
  const { periodStart } = await currentUsagePeriod(t.db, me.user.id);
  await t.db.insertInto("usage_counters").values({ user_id: me.user.id, period_start: periodStart, used: 2 }).execute();
  await repositories.upsertSynced(t.db, me.user.id, {
    github_id: 1_296_269,
    owner: "octocat",
    name: "todo-api",
    full_name: REPO,
    description: null,
    is_private: false,
    is_fork: false,
    language: "TypeScript",
    html_url: `https://github.com/${REPO}`,
    default_branch: "main",
    permission: "admin",
  });
  // Seeded after the sync stored the repository: the issue names the listed repository's id.
  const { solutionId, issueId } = await seedSolution(t.db, {
    userId: me.user.id,
    repoFullName: REPO,
    issueNumber: 3,
    files: [{ filename: "src/paginate.ts", action: "modify", originalContent: "a\n", content: "b\n" }],
  });
  /** The solution's routes, as its owner. */
  const api = t.client(me.headers).validations[":id"];
  const param = { id: solutionId };
  const refine = (feedback: string) => api.refine.$post({ param, json: { feedback } });
  const decide = (status: "approved" | "rejected") => api.validate.$post({ param, json: { status } });
  const view = async () => {
    const res = await api.$get({ param });
    expect(res.status).toBe(200);
    return (await res.json()).solution.issueId.actions;
  };
  const leave = async () => {
    expect(await repositories.removeUnseen(t.db, me.user.id, [])).toEqual([REPO]);
  };
  /** What a refused request must leave as it was: the solution, its issue, the quota, the queues. */
  const state = async () => ({
    solution: await t.db.selectFrom("solutions").select(["status"]).where("id", "=", solutionId).executeTakeFirst(),
    issue: await t.db.selectFrom("issues").select(["status"]).where("id", "=", issueId).executeTakeFirst(),
    runs: await t.db.selectFrom("solve_runs").select("id").execute(),
    used: (await t.db.selectFrom("usage_counters").select("used").executeTakeFirstOrThrow()).used,
    pullRequestJobs: await t.deps.queues.pullRequest.getJobCounts(),
  });
  return { ...t, me, issueId, refine, decide, view, leave, state };
}

const refused = (what: string) => ({
  code: "repository.access_lost",
  message: `You no longer have access to this issue's repository on GitHub, so ${what}`,
});

describe("a solution whose issue's repository left the user's list", () => {
  it("says so in its view, and refuses a refinement, reserving nothing", async () => {
    const t = await setup();
    expect(await t.view()).toMatchObject({ refine: { allowed: true }, approve: { allowed: true } });
    await t.leave();
    // The review page is told, in the refusals' words, so it can say why instead of offering them.
    const { code, message } = refused("its solution cannot be refined");
    expect(await t.view()).toMatchObject({
      refine: { allowed: false, code, reason: message },
      approve: { allowed: false, code, reason: refused("its pull request cannot be opened").message },
    });
    const before = await t.state();
    const res = await t.refine("Add a test");
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toEqual(refused("its solution cannot be refined"));
    expect(await t.state()).toEqual(before);
    expect(before.used).toBe(2);
  });

  it("refuses the approval, queueing no pull-request job, and still takes a rejection", async () => {
    const t = await setup();
    await t.leave();
    const before = await t.state();
    const res = await t.decide("approved");
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toEqual(refused("its pull request cannot be opened"));
    expect(await t.state()).toEqual(before);
    expect(before.solution?.status).toBe("pending");
    // Rejecting asks nothing of GitHub: it is taken as for any solution.
    expect((await t.decide("rejected")).status).toBe(200);
    expect((await t.state()).solution?.status).toBe("rejected");
  });
});

describe("a solution whose issue is known gone from GitHub", () => {
  it("refuses the approval before recording it, in the pull-request job's words, and its view says why", async () => {
    const t = await setup();
    await t.db.updateTable("issues").set({ gone: "deleted", status: "closed" }).where("id", "=", t.issueId).execute();
    const reason = "The issue was deleted on GitHub; no pull request is opened for it";
    // A refinement asks nothing of the issue on GitHub: it stays offered; the approval is not.
    expect(await t.view()).toMatchObject({
      refine: { allowed: true },
      approve: { allowed: false, code: "pull_request.issue_gone", reason },
    });
    const before = await t.state();
    const res = await t.decide("approved");
    expect(res.status).toBe(410);
    expect(await errorOf(res)).toEqual({
      code: "pull_request.issue_gone",
      message: reason,
    });
    // Nothing recorded, no pull-request job queued that could only refuse it.
    expect(await t.state()).toEqual(before);
    expect(before.solution?.status).toBe("pending");
  });
});
