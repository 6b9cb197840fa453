import { describe, expect, it } from "vitest";
import { DELETED, goneRunsStack, REPO, TRANSFERRED } from "../../test/gone-runs.testkit";
import { until } from "../../test/faults.testkit";
import { solveJobDone } from "../../test/jobs.testkit";

const { t, models, syncedIssue, solve, run, solutionsOf, eventsOf, shown, delivered } = await goneRunsStack();

/**
 * Starts a solve whose model requests each take a while, waits for its first one to reach the
 * model stand-in, lets `gone` delete or transfer the issue on GitHub, and reads the run to its end.
 */
async function goneWhileRunning(title: string, gone: (number: number) => void) {
  const issue = await syncedIssue(title);
  models.control.latency(1_500);
  const runId = await solve(issue.id);
  await until("the run's first model request", async () => models.control.requests.length > 0, 15_000, 20);
  expect(await delivered(() => gone(issue.number))).toEqual([["issues", 200]]);
  const asked = models.control.requests.length;
  const events = await eventsOf(runId);
  // Its job has ended: a run that kept going would have asked the model again by then.
  await solveJobDone(t.stack.deps.queues, runId);
  return { issue, runId, events, asked };
}

describe("a solve running when its issue goes from GitHub", () => {
  it("is stopped by the issues.deleted webhook: its model request aborted, no more asked, no solution, quota given back", async () => {
    const r = await goneWhileRunning("Spam an admin deletes mid-solve", (n) =>
      t.control.deleteIssue("octocat", "todo-api", n),
    );
    expect(r.events.at(-1)).toMatchObject({ event: "cancelled", data: { error: DELETED } });
    expect(models.control.requests.length).toBe(r.asked);
    expect(models.control.abortedRequests).toBe(1);
    expect(await run(r.runId)).toMatchObject({
      status: "cancelled",
      error_code: DELETED.code,
      error_message: DELETED.message,
      quota_state: "released",
      solution_id: null,
    });
    expect(await solutionsOf(r.issue.id)).toBe(0);
    expect(await shown(r.runId)).toMatchObject({ status: "cancelled", error: DELETED });
    const issue = await t.stack.db
      .selectFrom("issues")
      .select(["status", "gone"])
      .where("id", "=", r.issue.id)
      .executeTakeFirstOrThrow();
    expect(issue).toEqual({ status: "closed", gone: "deleted" });
  });

  it("is stopped by the issues.transferred webhook the same way, saying the issue was transferred", async () => {
    const r = await goneWhileRunning("Belongs in the URL shortener", (n) =>
      t.control.transferIssue("octocat", "todo-api", n, { owner: "octocat", repo: "url-shortener" }),
    );
    expect(r.events.at(-1)).toMatchObject({ event: "cancelled", data: { error: TRANSFERRED } });
    expect(models.control.requests.length).toBe(r.asked);
    expect(models.control.abortedRequests).toBe(1);
    expect(await run(r.runId)).toMatchObject({
      status: "cancelled",
      error_code: "issue.gone",
      quota_state: "released",
    });
    expect(await solutionsOf(r.issue.id)).toBe(0);
  });
});

describe("a solve running when the full issue sync finds its issue gone", () => {
  it("is stopped with the reason once GitHub confirms the issue was deleted, and asks the model nothing more", async () => {
    const issue = await syncedIssue("Deleted while no webhook reaches Fixloop");
    models.control.latency(1_500);
    const runId = await solve(issue.id);
    await until("the run's first model request", async () => models.control.requests.length > 0, 15_000, 20);
    t.control.deleteIssue("octocat", "todo-api", issue.number);
    const res = await t.stack.app.request(`/api/github/repositories/${REPO}/sync`, {
      method: "POST",
      headers: t.octocat.headers,
    });
    expect(res.status).toBe(200);
    const asked = models.control.requests.length;
    const events = await eventsOf(runId);
    await solveJobDone(t.stack.deps.queues, runId);
    expect(events.at(-1)).toMatchObject({ event: "cancelled", data: { error: DELETED } });
    expect(models.control.requests.length).toBe(asked);
    expect(await run(runId)).toMatchObject({ status: "cancelled", error_code: "issue.gone", quota_state: "released" });
    expect(await solutionsOf(issue.id)).toBe(0);
  });
});
