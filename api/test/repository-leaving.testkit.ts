import { afterAll, beforeAll, expect } from "vitest";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { createTestStack, type SignedIn, type TestStack } from "./stack";
import { makeEnterprise } from "./faults.testkit";
import { readSse } from "./sse.testkit";
import { syncNewIssues } from "./issue-sync.testkit";

export const REPO = "octocat/url-shortener";
export const ACCESS_LOST = {
  code: "repository.access_lost",
  message: "You no longer have access to this repository on GitHub, so this run was stopped",
};

/**
 * A repository leaves the user's list (the repository sync no longer sees it: the tests have
 * octocat hand it to hubot on GitHub) while the user's solves of its issues are under way. The real
 * sync and solve workers run; GitHub and the model provider are the stand-ins. Fields are set once
 * the file's `beforeAll` ran.
 */
export function repositoryLeavingKit() {
  const kit = {
    models: undefined as unknown as ModelSandbox,
    stack: undefined as unknown as TestStack,
    me: undefined as unknown as SignedIn,

    /** Lists the user's repositories (the sync stores them, dropping those GitHub no longer shows). */
    async list(): Promise<string[]> {
      const res = await kit.stack.app.request("/api/github/repositories", { headers: kit.me.headers });
      expect(res.status).toBe(200);
      return ((await res.json()) as { repositories: { fullName: string }[] }).repositories.map((r) => r.fullName);
    },

    /** New issues on the stand-in, synced into Fixloop; their rows' ids. */
    async syncedIssues(titles: string[], repo = REPO): Promise<string[]> {
      return (await syncNewIssues(kit.stack, kit.me, repo, titles)).map((issue) => issue.id);
    },

    async solve(issueId: string): Promise<string> {
      const res = await kit.stack.app.request("/api/ai/generate-solution", {
        method: "POST",
        headers: { ...kit.me.headers, "content-type": "application/json" },
        body: JSON.stringify({ issueId, modelId: "llama-3.3-70b-versatile" }),
      });
      expect(res.status).toBe(202);
      return ((await res.json()) as { runId: string }).runId;
    },

    /**
     * The queued run ended before anything of it ran, and the running one's event stream ended
     * cancelled: both for the repository having left the list.
     */
    async stoppedForAccessLost(queued: string, running: string) {
      expect(await kit.run(queued)).toMatchObject({
        status: "cancelled",
        error_code: ACCESS_LOST.code,
        error_message: ACCESS_LOST.message,
        quota_state: "released",
        started_at: null,
      });
      const events = await readSse(
        await kit.stack.app.request(`/api/runs/${running}/events`, { headers: kit.me.headers }),
      );
      expect(events.at(-1)).toMatchObject({ event: "cancelled", data: { error: ACCESS_LOST } });
    },

    run: (id: string) =>
      kit.stack.db
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
        .executeTakeFirstOrThrow(),
  };

  beforeAll(async () => {
    kit.models = await startModelSandbox();
    // One run of octocat's at a time, so a second solve waits queued while the first runs.
    kit.stack = await createTestStack({
      workers: ["sync", "solve"],
      env: { ...kit.models.env, MAX_ACTIVE_RUNS_PER_USER: "1", SANDBOX_BACKEND: "off", LOCALIZE_THREADS: "0" },
      logLevel: "warn",
    });
    kit.me = await kit.stack.signIn("octocat", { scopes: ["repo"] });
    await makeEnterprise(kit.stack.db, kit.me.user._id);
  }, 60_000);
  afterAll(async () => {
    await kit.models?.stop();
  });
  return kit;
}
