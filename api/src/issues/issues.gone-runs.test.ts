import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { startModelSandbox } from "@fixloop/testkit/sandbox";
import { webhookStack } from "../../test/webhooks.testkit";
import { makeEnterprise, until, usedQuota } from "../../test/faults.testkit";
import { readSse } from "../../test/sse.testkit";
import { holdStepWrites, workerWaits } from "../../test/hold-steps.testkit";

// One run of octocat's at a time, so a second solve waits queued while the first runs.
const models = await startModelSandbox();
afterAll(() => models.stop());
beforeEach(() => models.control.reset());
// Whatever a test left running is cancelled, so the next one starts with octocat's slot free.
afterEach(async () => {
  const active = () =>
    t.stack.db
      .selectFrom("solve_runs")
      .select("id")
      .where("user_id", "=", t.octocat.user._id)
      .where("status", "in", ["queued", "running"])
      .execute();
  for (const { id } of await active())
    await t.stack.app.request(`/api/runs/${id}/cancel`, { method: "POST", headers: t.octocat.headers });
  await until("no run left active", async () => (await active()).length === 0, 10_000, 50);
});
const t = await webhookStack({
  workers: ["sync", "solve"],
  env: { ...models.env, MAX_ACTIVE_RUNS_PER_USER: "1", SANDBOX_BACKEND: "off", LOCALIZE_THREADS: "0" },
});
await makeEnterprise(t.stack.db, t.octocat.user._id);
const REPO = "octocat/todo-api";
const DELETED = { code: "issue.gone", message: "The issue was deleted on GitHub, so this run was stopped" };
const TRANSFERRED = {
  code: "issue.gone",
  message: "The issue was transferred to another repository on GitHub, so this run was stopped",
};

/** A new issue on the stand-in, synced into Fixloop while no webhook is delivered; its row's id. */
async function syncedIssue(title: string): Promise<{ id: string; number: number }> {
  t.control.setWebhook(null);
  const [number = 0] = t.control.addIssues("octocat", "todo-api", [{ title }]);
  const res = await t.stack.app.request(`/api/github/repositories/${REPO}/sync`, {
    method: "POST",
    headers: t.octocat.headers,
  });
  expect(res.status).toBe(200);
  const row = await t.stack.db
    .selectFrom("issues")
    .select("id")
    .where("user_id", "=", t.octocat.user._id)
    .where("repo_full_name", "=", REPO)
    .where("issue_number", "=", number)
    .executeTakeFirstOrThrow();
  return { id: row.id, number };
}

async function solve(issueId: string): Promise<string> {
  const res = await t.stack.app.request("/api/ai/generate-solution", {
    method: "POST",
    headers: { ...t.octocat.headers, "content-type": "application/json" },
    body: JSON.stringify({ issueId, modelId: "llama-3.3-70b-versatile" }),
  });
  expect(res.status).toBe(202);
  return ((await res.json()) as { runId: string }).runId;
}

const run = (id: string) =>
  t.stack.db
    .selectFrom("solve_runs")
    .select(["status", "error_code", "error_message", "quota_state", "started_at", "solution_id"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

const solutionsOf = async (issueId: string) =>
  (await t.stack.db.selectFrom("solutions").select("id").where("issue_id", "=", issueId).execute()).length;

/** The run's events as its page reads them, to the end. */
const eventsOf = async (runId: string) =>
  readSse(await t.stack.app.request(`/api/runs/${runId}/events`, { headers: t.octocat.headers }));

/** What the page shows of the run (GET /api/runs/:id). */
async function shown(runId: string) {
  const res = await t.stack.app.request(`/api/runs/${runId}`, { headers: t.octocat.headers });
  return ((await res.json()) as { run: { status: string; error: unknown } }).run;
}

/** Lets the stand-in deliver webhooks again, does `act` on it, and returns what it delivered. */
async function delivered(act: () => void) {
  t.control.setWebhook(t.hook);
  const before = (await t.control.webhookDeliveries()).length;
  act();
  return (await t.control.webhookDeliveries()).slice(before).map((d) => [d.event, d.status]);
}

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
  // Long enough for the next model request of a run that kept going.
  await new Promise((r) => setTimeout(r, 2_000));
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
    await new Promise((r) => setTimeout(r, 2_000));
    expect(events.at(-1)).toMatchObject({ event: "cancelled", data: { error: DELETED } });
    expect(models.control.requests.length).toBe(asked);
    expect(await run(runId)).toMatchObject({ status: "cancelled", error_code: "issue.gone", quota_state: "released" });
    expect(await solutionsOf(issue.id)).toBe(0);
  });
});

describe("a solve still queued when its issue goes from GitHub", () => {
  /** A first solve holding octocat's one slot (its model request never answers), and a second one queued behind it. */
  async function queuedBehindAnother(titles: [string, string]) {
    const first = await syncedIssue(titles[0]);
    const second = await syncedIssue(titles[1]);
    models.control.hangNext();
    const running = await solve(first.id);
    await until("the first run's model request", async () => models.control.requests.length === 1, 15_000, 20);
    const queued = await solve(second.id);
    await until("the second run held back", async () => (await run(queued)).status === "queued", 5_000, 50);
    return { first, second, running, queued };
  }

  it("ends at once on the issues.deleted webhook, its quota unit given back, and never starts", async () => {
    const q = await queuedBehindAnother(["Keeps the worker busy", "Deleted while waiting"]);
    expect(await delivered(() => t.control.deleteIssue("octocat", "todo-api", q.second.number))).toEqual([
      ["issues", 200],
    ]);
    expect(await run(q.queued)).toMatchObject({
      status: "cancelled",
      error_code: DELETED.code,
      error_message: DELETED.message,
      quota_state: "released",
      started_at: null,
    });
    expect((await eventsOf(q.queued)).at(-1)).toMatchObject({ event: "cancelled", data: { error: DELETED } });
    // The slot frees: still nothing of the second run reaches the model.
    const cancel = await t.stack.app.request(`/api/runs/${q.running}/cancel`, {
      method: "POST",
      headers: t.octocat.headers,
    });
    expect(cancel.status).toBe(200);
    await until("the first run to end", async () => (await run(q.running)).status === "cancelled", 10_000, 50);
    // A user's own Cancel still says so.
    expect(await run(q.running)).toMatchObject({ error_code: "run.cancelled", error_message: "The run was cancelled" });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(models.control.requests.length).toBe(1);
    expect(await run(q.queued)).toMatchObject({ status: "cancelled", started_at: null });
  });

  it("is refused by the worker when it is picked up after its issue was marked gone, spending nothing", async () => {
    const q = await queuedBehindAnother(["Busy again", "Gone before its turn"]);
    // Marked by a process that stopped before it could stop the issue's runs (a crash, say).
    await t.stack.db
      .updateTable("issues")
      .set({ status: "closed", state: "closed", gone: "transferred" })
      .where("id", "=", q.second.id)
      .execute();
    expect((await run(q.queued)).status).toBe("queued");
    const cancel = await t.stack.app.request(`/api/runs/${q.running}/cancel`, {
      method: "POST",
      headers: t.octocat.headers,
    });
    expect(cancel.status).toBe(200);
    await until(
      "the queued run to be picked up and end",
      async () => (await run(q.queued)).status !== "queued",
      15_000,
    );
    const events = await eventsOf(q.queued);
    expect(events.at(-1)).toMatchObject({ event: "cancelled", data: { error: TRANSFERRED } });
    expect(await run(q.queued)).toMatchObject({
      status: "cancelled",
      error_code: TRANSFERRED.code,
      error_message: TRANSFERRED.message,
      quota_state: "released",
      solution_id: null,
    });
    expect(models.control.requests.length).toBe(1);
    expect(events.some((e) => e.event === "step" && (e.data as { status: string }).status === "running")).toBe(false);
    expect(await solutionsOf(q.second.id)).toBe(0);
  });
});

describe("a user's Cancel and the issue going from GitHub, both before the worker ends the run", () => {
  const cancelByUser = (runId: string) =>
    t.stack.app.request(`/api/runs/${runId}/cancel`, { method: "POST", headers: t.octocat.headers });

  async function heldRun(title: string) {
    const issue = await syncedIssue(title);
    const hold = holdStepWrites(t.stack.db);
    await hold.held;
    try {
      const runId = await solve(issue.id);
      await until("the worker to claim the run and wait", () => workerWaits(t.stack.db), 15_000, 20);
      expect((await run(runId)).status).toBe("running");
      return { issue, runId, hold };
    } catch (err) {
      await hold.release();
      throw err;
    }
  }

  it("ends as the user's Cancel when the issue is deleted after it, stopping nothing twice", async () => {
    const before = await usedQuota(t.stack.db, t.octocat.user._id);
    const h = await heldRun("Cancelled by its user, then deleted");
    try {
      const cancel = await cancelByUser(h.runId);
      expect(cancel.status).toBe(200);
      expect(await cancel.json()).toEqual({ runId: h.runId, status: "cancelling" });
      expect(await delivered(() => t.control.deleteIssue("octocat", "todo-api", h.issue.number))).toEqual([
        ["issues", 200],
      ]);
    } finally {
      await h.hold.release();
    }
    const events = await eventsOf(h.runId);
    const CANCELLED = { code: "run.cancelled", message: "The run was cancelled" };
    expect(events.at(-1)).toMatchObject({ event: "cancelled", data: { error: CANCELLED } });
    expect(await run(h.runId)).toMatchObject({
      status: "cancelled",
      error_code: CANCELLED.code,
      error_message: CANCELLED.message,
      quota_state: "released",
      solution_id: null,
    });
    expect(await shown(h.runId)).toMatchObject({ status: "cancelled", error: CANCELLED });
    // The issue is still marked gone: only the run's reason is the user's.
    const issue = await t.stack.db
      .selectFrom("issues")
      .select("gone")
      .where("id", "=", h.issue.id)
      .executeTakeFirstOrThrow();
    expect(issue.gone).toBe("deleted");
    expect(models.control.requests.length).toBe(0);
    expect(await usedQuota(t.stack.db, t.octocat.user._id)).toBe(before);
  });

  it("ends as the issue gone when the issue is deleted before the user's Cancel", async () => {
    const h = await heldRun("Deleted, then cancelled by its user");
    try {
      expect(await delivered(() => t.control.deleteIssue("octocat", "todo-api", h.issue.number))).toEqual([
        ["issues", 200],
      ]);
      const cancel = await cancelByUser(h.runId);
      expect(cancel.status).toBe(200);
      expect(await cancel.json()).toEqual({ runId: h.runId, status: "cancelling" });
    } finally {
      await h.hold.release();
    }
    const events = await eventsOf(h.runId);
    expect(events.at(-1)).toMatchObject({ event: "cancelled", data: { error: DELETED } });
    expect(await run(h.runId)).toMatchObject({
      status: "cancelled",
      error_code: DELETED.code,
      error_message: DELETED.message,
      quota_state: "released",
      solution_id: null,
    });
    expect(await shown(h.runId)).toMatchObject({ status: "cancelled", error: DELETED });
  });
});
