import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { insertRun } from "@fixloop/testkit";
import { repositories } from "@fixloop/db";
import { createTestStack, type SignedIn, type TestStack } from "../../test/stack";
import { makeEnterprise, until, usedQuota } from "../../test/faults.testkit";
import { readSse } from "../../test/sse.testkit";
import { sweepOnce } from "@fixloop/worker";

/**
 * A repository leaves the user's list (the repository sync no longer sees it: here octocat hands it
 * to hubot on GitHub) while the user's solves of its issues are under way. The real sync and solve
 * workers run; GitHub and the model provider are the stand-ins.
 */
let models: ModelSandbox;
let stack: TestStack;
let me: SignedIn;

beforeAll(async () => {
  models = await startModelSandbox();
  // One run of octocat's at a time, so a second solve waits queued while the first runs.
  stack = await createTestStack({
    workers: ["sync", "solve"],
    env: { ...models.env, MAX_ACTIVE_RUNS_PER_USER: "1", SANDBOX_BACKEND: "off", LOCALIZE_THREADS: "0" },
    logLevel: "warn",
  });
  me = await stack.signIn("octocat", { scopes: ["repo"] });
  await makeEnterprise(stack.db, me.user._id);
}, 60_000);
afterAll(async () => {
  await models?.stop();
});

const REPO = "octocat/url-shortener";
const ACCESS_LOST = {
  code: "repository.access_lost",
  message: "You no longer have access to this repository on GitHub, so this run was stopped",
};

/** Lists the user's repositories (the sync stores them, dropping those GitHub no longer shows). */
async function list(): Promise<string[]> {
  const res = await stack.app.request("/api/github/repositories", { headers: me.headers });
  expect(res.status).toBe(200);
  return ((await res.json()) as { repositories: { fullName: string }[] }).repositories.map((r) => r.fullName);
}

/** New issues on the stand-in, synced into Fixloop; their rows' ids. */
async function syncedIssues(titles: string[], repo = REPO): Promise<string[]> {
  const [owner = "", name = ""] = repo.split("/");
  const numbers = stack.github.control.addIssues(
    owner,
    name,
    titles.map((title) => ({ title })),
  );
  const res = await stack.app.request(`/api/github/repositories/${repo}/sync`, { method: "POST", headers: me.headers });
  expect(res.status).toBe(200);
  const rows = await stack.db
    .selectFrom("issues")
    .select(["id", "issue_number"])
    .where("user_id", "=", me.user._id)
    .where("repo_full_name", "=", repo)
    .where("issue_number", "in", numbers)
    .execute();
  return numbers.map((n) => rows.find((r) => r.issue_number === n)?.id ?? "");
}

async function solve(issueId: string): Promise<string> {
  const res = await stack.app.request("/api/ai/generate-solution", {
    method: "POST",
    headers: { ...me.headers, "content-type": "application/json" },
    body: JSON.stringify({ issueId, modelId: "llama-3.3-70b-versatile" }),
  });
  expect(res.status).toBe(202);
  return ((await res.json()) as { runId: string }).runId;
}

const run = (id: string) =>
  stack.db
    .selectFrom("solve_runs")
    .select([
      "status",
      "error_code",
      "error_message",
      "quota_state",
      "started_at",
      "solution_id",
      "cancel_requested_at",
    ])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

describe("a repository leaving the user's list while they solve its issues", () => {
  it("stops the running solve before any further model call and ends the queued one at once, with the reason and units back; a run of an imported issue goes on", async () => {
    expect(await list()).toContain(REPO);
    const [first = "", second = ""] = await syncedIssues(["Short links expire a day early", "Stats count bots"]);
    const before = await usedQuota(stack.db, me.user._id);

    models.control.latency(1_500);
    const running = await solve(first);
    await until("the run's first model request", async () => models.control.requests.length > 0, 30_000, 20);
    const queued = await solve(second);
    expect(await run(queued)).toMatchObject({ status: "queued", started_at: null });
    // An issue imported from the same repository, solved in the user's fork: its run is not the
    // removed repository's to stop (no worker job holds it; only what the sync does to it counts).
    const imported = await stack.db
      .insertInto("issues")
      .values({
        user_id: me.user._id,
        repo_full_name: REPO,
        issue_number: 9_001,
        title: "Imported from upstream",
        status: "open",
        html_url: `https://github.com/${REPO}/issues/9001`,
        is_imported: true,
        upstream_full_name: REPO,
        fork_full_name: "octocat/url-shortener-fork",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const importedRun = await insertRun(stack.db, {
      user_id: me.user._id,
      issue_id: imported.id,
      status: "running",
      started_at: new Date(),
    });
    expect(await usedQuota(stack.db, me.user._id)).toBe(before + 2);

    // octocat gives the repository away: the sync no longer sees it.
    await stack.github.control.transferRepository("octocat", "url-shortener", "hubot");
    expect(await list()).not.toContain(REPO);
    const asked = models.control.requests.length;

    // The queued run ended with the sync, before anything of it ran.
    expect(await run(queued)).toMatchObject({
      status: "cancelled",
      error_code: ACCESS_LOST.code,
      error_message: ACCESS_LOST.message,
      quota_state: "released",
      started_at: null,
    });
    const events = await readSse(await stack.app.request(`/api/runs/${running}/events`, { headers: me.headers }));
    expect(events.at(-1)).toMatchObject({ event: "cancelled", data: { error: ACCESS_LOST } });
    // Long enough for the next model request of a run that kept going.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(models.control.requests.length).toBe(asked);
    expect(models.control.abortedRequests).toBe(1);
    expect(await run(running)).toMatchObject({
      status: "cancelled",
      error_code: ACCESS_LOST.code,
      error_message: ACCESS_LOST.message,
      quota_state: "released",
      solution_id: null,
    });
    // What the solve page shows of it.
    const shown = await stack.app.request(`/api/runs/${running}`, { headers: me.headers });
    expect(((await shown.json()) as { run: unknown }).run).toMatchObject({ status: "cancelled", error: ACCESS_LOST });
    expect(await usedQuota(stack.db, me.user._id)).toBe(before);

    expect(await run(importedRun.id)).toMatchObject({ status: "running", error_code: null, cancel_requested_at: null });
    await stack.db.updateTable("solve_runs").set({ status: "cancelled" }).where("id", "=", importedRun.id).execute();
  });

  it("stops the runs a sync that failed after removing the repository left going, at the next sync, giving each unit back once", async () => {
    const repo = "octocat/todo-api";
    expect(await list()).toContain(repo);
    const [first = "", second = ""] = await syncedIssues(
      ["Due dates ignore the time zone", "Done items reappear"],
      repo,
    );
    const before = await usedQuota(stack.db, me.user._id);
    const asked = models.control.requests.length;
    const aborted = models.control.abortedRequests;

    models.control.latency(1_500);
    const running = await solve(first);
    await until("the run's first model request", async () => models.control.requests.length > asked, 30_000, 20);
    const queued = await solve(second);
    expect(await usedQuota(stack.db, me.user._id)).toBe(before + 2);

    // octocat gives the repository away, and a sync removes it from the list, then dies before
    // stopping anything (as a Redis error or a killed job would leave it).
    await stack.github.control.transferRepository("octocat", "todo-api", "hubot");
    const kept = await stack.db
      .selectFrom("repositories")
      .select("github_id")
      .where("user_id", "=", me.user._id)
      .where("full_name", "<>", repo)
      .execute();
    expect(
      await repositories.removeUnseen(
        stack.db,
        me.user._id,
        kept.map((r) => String(r.github_id)),
      ),
    ).toEqual([repo]);
    expect(await run(queued)).toMatchObject({ status: "queued", error_code: null, quota_state: "reserved" });
    expect(await run(running)).toMatchObject({ status: "running", cancel_requested_at: null });

    // The next sync no longer sees the repository leave, yet both runs stop.
    expect(await list()).not.toContain(repo);
    expect(await run(queued)).toMatchObject({
      status: "cancelled",
      error_code: ACCESS_LOST.code,
      error_message: ACCESS_LOST.message,
      quota_state: "released",
      started_at: null,
    });
    const events = await readSse(await stack.app.request(`/api/runs/${running}/events`, { headers: me.headers }));
    expect(events.at(-1)).toMatchObject({ event: "cancelled", data: { error: ACCESS_LOST } });
    expect(models.control.abortedRequests).toBe(aborted + 1);
    expect(await run(running)).toMatchObject({
      status: "cancelled",
      error_code: ACCESS_LOST.code,
      quota_state: "released",
      solution_id: null,
    });
    expect(await usedQuota(stack.db, me.user._id)).toBe(before);

    // A further sync finds nothing more to stop or give back.
    expect(await list()).not.toContain(repo);
    expect(await usedQuota(stack.db, me.user._id)).toBe(before);
    expect(await run(queued)).toMatchObject({ status: "cancelled", quota_state: "released" });
  });

  it("has the sweeper stop the runs a failed sync left going, though the user does not sync again", async () => {
    await stack.github.control.createRepository("octocat", "ledger");
    const repo = "octocat/ledger";
    expect(await list()).toContain(repo);
    const [first = "", second = ""] = await syncedIssues(["Totals round twice", "Export drops notes"], repo);
    const before = await usedQuota(stack.db, me.user._id);
    const asked = models.control.requests.length;

    models.control.latency(1_500);
    const running = await solve(first);
    await until("the run's first model request", async () => models.control.requests.length > asked, 30_000, 20);
    const queued = await solve(second);
    await stack.github.control.transferRepository("octocat", "ledger", "hubot");
    const kept = await stack.db
      .selectFrom("repositories")
      .select("github_id")
      .where("user_id", "=", me.user._id)
      .where("full_name", "<>", repo)
      .execute();
    await repositories.removeUnseen(
      stack.db,
      me.user._id,
      kept.map((r) => String(r.github_id)),
    );
    expect(await run(queued)).toMatchObject({ status: "queued", quota_state: "reserved" });

    await stack.redis.del(`${stack.prefix}:sweeper-lock`);
    expect((await sweepOnce(stack.ctx, 5)).accessLost.sort()).toEqual([running, queued].sort());
    expect(await run(queued)).toMatchObject({
      status: "cancelled",
      error_code: ACCESS_LOST.code,
      quota_state: "released",
      started_at: null,
    });
    const events = await readSse(await stack.app.request(`/api/runs/${running}/events`, { headers: me.headers }));
    expect(events.at(-1)).toMatchObject({ event: "cancelled", data: { error: ACCESS_LOST } });
    expect(await run(running)).toMatchObject({
      status: "cancelled",
      error_code: ACCESS_LOST.code,
      quota_state: "released",
    });
    expect(await usedQuota(stack.db, me.user._id)).toBe(before);

    await stack.redis.del(`${stack.prefix}:sweeper-lock`);
    expect((await sweepOnce(stack.ctx, 5)).accessLost).toEqual([]);
    expect(await usedQuota(stack.db, me.user._id)).toBe(before);
  });

  it("refuses to solve an issue whose repository left the list, reserving nothing, and says so on the issue, until the repository is back", async () => {
    await stack.github.control.createRepository("octocat", "atlas");
    const repo = "octocat/atlas";
    expect(await list()).toContain(repo);
    const [issueId = ""] = await syncedIssues(["Tiles load twice"], repo);
    const shown = async () => {
      const res = await stack.app.request(`/api/issues/${issueId}`, { headers: me.headers });
      expect(res.status).toBe(200);
      return ((await res.json()) as { issue: { repositoryAccessLost: boolean } }).issue.repositoryAccessLost;
    };
    expect(await shown()).toBe(false);

    await stack.github.control.transferRepository("octocat", "atlas", "hubot");
    expect(await list()).not.toContain(repo);
    const before = await usedQuota(stack.db, me.user._id);
    const asked = models.control.requests.length;
    const refused = await stack.app.request("/api/ai/generate-solution", {
      method: "POST",
      headers: { ...me.headers, "content-type": "application/json" },
      body: JSON.stringify({ issueId, modelId: "llama-3.3-70b-versatile" }),
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: unknown }).error).toEqual({
      code: "repository.access_lost",
      message: "You no longer have access to this issue's repository on GitHub, so it cannot be solved",
    });
    expect(await stack.db.selectFrom("solve_runs").select("id").where("issue_id", "=", issueId).execute()).toEqual([]);
    expect(await usedQuota(stack.db, me.user._id)).toBe(before);
    expect(models.control.requests.length).toBe(asked);
    expect(await shown()).toBe(true);

    // Given back on GitHub, the repository is listed again and its issue may be solved.
    await stack.github.control.transferRepository("hubot", "atlas", "octocat");
    expect(await list()).toContain(repo);
    expect(await shown()).toBe(false);
    const again = await solve(issueId);
    const cancelled = await stack.app.request(`/api/runs/${again}/cancel`, { method: "POST", headers: me.headers });
    expect(cancelled.status).toBe(200);
    const events = await readSse(await stack.app.request(`/api/runs/${again}/events`, { headers: me.headers }));
    expect(events.at(-1)).toMatchObject({ event: "cancelled" });
  });
});
