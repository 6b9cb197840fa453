import { describe, expect, it } from "vitest";
import { insertRun, seedRepository } from "@fixloop/testkit";
import { until, usedQuota } from "../../test/faults.testkit";
import { readSse } from "../../test/sse.testkit";
import { solveJobDone } from "../../test/jobs.testkit";
import { ACCESS_LOST, REPO, repositoryLeavingKit } from "../../test/repository-leaving.testkit";

/**
 * A repository leaves the user's list while they solve its issues: the sync stops the runs, and a
 * new solve of its issues is refused until it is back (the kit's set-up: real sync and solve
 * workers, GitHub and the model provider as stand-ins).
 */
const kit = repositoryLeavingKit();
const { list, syncedIssues, solve, run } = kit;

describe("a repository leaving the user's list while they solve its issues", () => {
  it("stops the running solve before any further model call and ends the queued one at once, with the reason and units back; a run of an imported issue goes on", async () => {
    expect(await list()).toContain(REPO);
    const [first = "", second = ""] = await syncedIssues(["Short links expire a day early", "Stats count bots"]);
    const before = await usedQuota(kit.stack.db, kit.me.user._id);

    kit.models.control.latency(1_500);
    const running = await solve(first);
    await until("the run's first model request", async () => kit.models.control.requests.length > 0, 30_000, 20);
    const queued = await solve(second);
    expect(await run(queued)).toMatchObject({ status: "queued", started_at: null });
    // An issue imported from the same repository, solved in the user's fork: its run is not the
    // removed repository's to stop (no worker job holds it; only what the sync does to it counts).
    const imported = await kit.stack.db
      .insertInto("issues")
      .values({
        user_id: kit.me.user._id,
        repository_github_id: await seedRepository(kit.stack.db, REPO),
        issue_number: 9_001,
        title: "Imported from upstream",
        status: "open",
        html_url: `https://github.com/${REPO}/issues/9001`,
        is_imported: true,
        fork_github_id: await seedRepository(kit.stack.db, "octocat/url-shortener-fork"),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const importedRun = await insertRun(kit.stack.db, {
      user_id: kit.me.user._id,
      issue_id: imported.id,
      status: "running",
      started_at: new Date(),
    });
    expect(await usedQuota(kit.stack.db, kit.me.user._id)).toBe(before + 2);

    // octocat gives the repository away: the sync no longer sees it.
    await kit.stack.github.control.transferRepository("octocat", "url-shortener", "hubot");
    expect(await list()).not.toContain(REPO);
    const asked = kit.models.control.requests.length;

    // The queued run ended with the sync, before anything of it ran.
    await kit.stoppedForAccessLost(queued, running);
    // Both jobs have ended: a run that kept going would have asked the model again by then.
    await solveJobDone(kit.stack.deps.queues, running);
    await solveJobDone(kit.stack.deps.queues, queued);
    expect(kit.models.control.requests.length).toBe(asked);
    expect(kit.models.control.abortedRequests).toBe(1);
    expect(await run(running)).toMatchObject({
      status: "cancelled",
      error_code: ACCESS_LOST.code,
      error_message: ACCESS_LOST.message,
      quota_state: "released",
      solution_id: null,
    });
    // What the solve page shows of it.
    const shown = await kit.stack.app.request(`/api/runs/${running}`, { headers: kit.me.headers });
    expect(((await shown.json()) as { run: unknown }).run).toMatchObject({ status: "cancelled", error: ACCESS_LOST });
    expect(await usedQuota(kit.stack.db, kit.me.user._id)).toBe(before);

    expect(await run(importedRun.id)).toMatchObject({ status: "running", error_code: null, cancel_requested_at: null });
    await kit.stack.db
      .updateTable("solve_runs")
      .set({ status: "cancelled" })
      .where("id", "=", importedRun.id)
      .execute();
  });

  it("refuses to solve an issue whose repository left the list, reserving nothing, and says so on the issue, until the repository is back", async () => {
    await kit.stack.github.control.createRepository("octocat", "atlas");
    const repo = "octocat/atlas";
    expect(await list()).toContain(repo);
    const [issueId = ""] = await syncedIssues(["Tiles load twice"], repo);
    const shown = async () => {
      const res = await kit.stack.app.request(`/api/issues/${issueId}`, { headers: kit.me.headers });
      expect(res.status).toBe(200);
      return ((await res.json()) as { issue: { actions: { solve: unknown } } }).issue.actions.solve;
    };
    expect(await shown()).toEqual({ allowed: true });

    await kit.stack.github.control.transferRepository("octocat", "atlas", "hubot");
    expect(await list()).not.toContain(repo);
    const before = await usedQuota(kit.stack.db, kit.me.user._id);
    const asked = kit.models.control.requests.length;
    const refused = await kit.stack.app.request("/api/ai/generate-solution", {
      method: "POST",
      headers: { ...kit.me.headers, "content-type": "application/json" },
      body: JSON.stringify({ issueId, modelId: "llama-3.3-70b-versatile" }),
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: unknown }).error).toEqual({
      code: "repository.access_lost",
      message: "You no longer have access to this issue's repository on GitHub, so it cannot be solved",
    });
    expect(await kit.stack.db.selectFrom("solve_runs").select("id").where("issue_id", "=", issueId).execute()).toEqual(
      [],
    );
    expect(await usedQuota(kit.stack.db, kit.me.user._id)).toBe(before);
    expect(kit.models.control.requests.length).toBe(asked);
    // The issue's view says why, in the words of the refusal.
    expect(await shown()).toEqual({
      allowed: false,
      code: "repository.access_lost",
      reason: "You no longer have access to this issue's repository on GitHub, so it cannot be solved",
    });

    // Given back on GitHub, the repository is listed again and its issue may be solved.
    await kit.stack.github.control.transferRepository("hubot", "atlas", "octocat");
    expect(await list()).toContain(repo);
    expect(await shown()).toEqual({ allowed: true });
    const again = await solve(issueId);
    const cancelled = await kit.stack.app.request(`/api/runs/${again}/cancel`, {
      method: "POST",
      headers: kit.me.headers,
    });
    expect(cancelled.status).toBe(200);
    const events = await readSse(await kit.stack.app.request(`/api/runs/${again}/events`, { headers: kit.me.headers }));
    expect(events.at(-1)).toMatchObject({ event: "cancelled" });
  });
});
