import { afterAll, afterEach, beforeEach, expect } from "vitest";
import { startModelSandbox } from "@fixloop/testkit/sandbox";
import { webhookStack } from "./webhooks.testkit";
import { makeEnterprise, until } from "./faults.testkit";
import { readSse } from "./sse.testkit";
import { syncNewIssues } from "./issue-sync.testkit";

export const REPO = "octocat/todo-api";
export const DELETED = { code: "issue.gone", message: "The issue was deleted on GitHub, so this run was stopped" };
export const TRANSFERRED = {
  code: "issue.gone",
  message: "The issue was transferred to another repository on GitHub, so this run was stopped",
};

/**
 * A webhook stack with sync and solve workers and a model stand-in, for solves whose issue goes
 * from GitHub: octocat (Enterprise) signed in, at most one active run, each test starting with
 * octocat's slot free. Returns the stack and what the tests read and drive runs with.
 */
export async function goneRunsStack() {
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
  /** A new issue on the stand-in, synced into Fixloop while no webhook is delivered; its row's id. */
  async function syncedIssue(title: string): Promise<{ id: string; number: number }> {
    t.control.setWebhook(null);
    const [issue] = await syncNewIssues(t.stack, t.octocat, REPO, [title]);
    if (!issue) throw new Error(`"${title}" was not synced`);
    return issue;
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

  await makeEnterprise(t.stack.db, t.octocat.user._id);

  return { t, models, syncedIssue, solve, run, solutionsOf, eventsOf, shown, delivered };
}
