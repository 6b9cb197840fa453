import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobIds } from "@fixloop/contract";
import { currentUsagePeriod } from "@fixloop/db";
import { startModelSandbox, type ModelSandbox } from "@fixloop/testkit/sandbox";
import { createTestStack, type TestStack } from "../../test/stack";
import { handleLabeledIssue } from "./label-trigger.handler";

let models: ModelSandbox;
let stack: TestStack;

beforeAll(async () => {
  models = await startModelSandbox();
  // Sync workers only: runs stay queued, which is all the trigger's admission needs.
  stack = await createTestStack({ env: models.env, workers: ["sync"], logLevel: "info" });
}, 60_000);
afterAll(async () => {
  await models?.stop();
});

/** Signs in with repository access and lists the repositories (the sync that stores them). */
async function owner(login: string) {
  const me = await stack.signIn(login, { scopes: ["public_repo"] });
  const headers = { ...me.headers, "content-type": "application/json" };
  expect((await stack.client(headers).github.repositories.$get({ query: {} })).status).toBe(200);
  return { id: me.user._id, headers };
}

/** The `:owner/:repo` params of a repository's full name. */
const repoOf = (full: string) => {
  const [owner = "", repo = ""] = full.split("/");
  return { owner, repo };
};
const repository = (headers: Record<string, string>) => stack.client(headers).github.repositories[":owner"][":repo"];
const setTrigger = (headers: Record<string, string>, full: string, json: { enabled: boolean; label: string }) =>
  repository(headers)["label-trigger"].$put({ param: repoOf(full), json });
const getTrigger = (headers: Record<string, string>, full: string) =>
  repository(headers)["label-trigger"].$get({ param: repoOf(full) });
const syncRepository = (headers: Record<string, string>, full: string) =>
  repository(headers).sync.$post({ param: repoOf(full) });

/** A test user adds `label` to a new issue on the stand-in, through GitHub's REST API. */
async function labelledIssue(login: string, ownerLogin: string, repo: string, label: string) {
  const [n = 0] = stack.github.control.addIssues(ownerLogin, repo, [{ title: `Crash on empty input ${label}` }]);
  const gh = new Octokit({ baseUrl: stack.github.url, auth: stack.github.control.issueToken(login, ["repo"]) });
  await gh.rest.issues.addLabels({ owner: ownerLogin, repo, issue_number: n, labels: [label] });
  // A webhook names the repository by its GitHub id.
  const repositoryId = (await gh.rest.repos.get({ owner: ownerLogin, repo })).data.id;
  return { n, gh, repositoryId };
}

const comments = async (gh: Octokit, owner: string, repo: string, n: number) =>
  (await gh.rest.issues.listComments({ owner, repo, issue_number: n })).data.map((c) => c.body ?? "");

const runsOf = (userId: string) =>
  stack.db
    .selectFrom("solve_runs")
    .select(["id", "issue_id", "input", "status"])
    .where("user_id", "=", userId)
    .execute();

describe("label trigger", () => {
  it("solves a labelled issue of an enabled repository: one run marked label, one comment linking it, once however often seen", async () => {
    const me = await owner("octocat");
    expect((await setTrigger(me.headers, "octocat/todo-api", { enabled: true, label: "fixloop" })).status).toBe(200);
    const { n, gh, repositoryId } = await labelledIssue("octocat", "octocat", "todo-api", "fixloop");
    const event = {
      repositoryId,
      repoFullName: "octocat/todo-api",
      issueNumber: n,
      label: "FixLoop",
      senderLogin: "octocat",
    };
    const [first, second] = await Promise.all([
      handleLabeledIssue(stack.deps, event),
      handleLabeledIssue(stack.deps, event),
    ]);
    const started = [first, second].find((o) => o.status === "started");
    expect([first.status, second.status].sort()).toEqual(["duplicate", "started"]);
    if (!started || started.status !== "started") throw new Error("no run started");
    expect((await handleLabeledIssue(stack.deps, event)).status).toBe("duplicate");
    const runs = await runsOf(me.id);
    expect(runs).toEqual([
      {
        id: started.runId,
        issue_id: started.issueId,
        input: { trigger: "label", triggerLabel: "fixloop", triggerSender: "octocat" },
        status: "queued",
      },
    ]);
    expect(await stack.deps.queues.solve.getJob(jobIds.solve(started.runId)).then((j) => j?.data)).toEqual({
      runId: started.runId,
    });
    const said = await comments(gh, "octocat", "todo-api", n);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`${stack.publicUrl}/issues/${started.issueId}/solve?run=${started.runId}`);
    const view = await (await stack.client(me.headers).runs[":id"].$get({ param: { id: started.runId } })).json();
    expect(view.run).toMatchObject({ trigger: "label", triggerLabel: "fixloop" });
    // The issues list marks the issue whose newest run the label started, and no other.
    const listed = await (await stack.client(me.headers).issues.$get({ query: {} })).json();
    expect(listed.issues.find((i) => i._id === started.issueId)?.startedByLabel).toBe("fixloop");
    expect(listed.issues.filter((i) => i._id !== started.issueId).map((i) => i.startedByLabel)).not.toContain(
      "fixloop",
    );
  });

  it("does nothing for a repository that did not enable it, or for another label", async () => {
    const me = await owner("octocat");
    const before = (await runsOf(me.id)).length;
    const off = await labelledIssue("octocat", "octocat", "url-shortener", "fixloop");
    const event = {
      repositoryId: off.repositoryId,
      repoFullName: "octocat/url-shortener",
      issueNumber: off.n,
      label: "fixloop",
      senderLogin: "octocat",
    };
    expect(await handleLabeledIssue(stack.deps, event)).toEqual({ status: "disabled" });
    const other = await labelledIssue("octocat", "octocat", "todo-api", "bug");
    const bug = {
      repositoryId: other.repositoryId,
      repoFullName: "octocat/todo-api",
      issueNumber: other.n,
      label: "bug",
      senderLogin: "octocat",
    };
    expect(await handleLabeledIssue(stack.deps, bug)).toEqual({ status: "disabled" });
    expect(await runsOf(me.id)).toHaveLength(before);
    expect(await comments(off.gh, "octocat", "url-shortener", off.n)).toEqual([]);
  });

  it("starts from the repository sync when no webhook comes", async () => {
    const me = await owner("octocat");
    expect((await setTrigger(me.headers, "octocat/weather-cli", { enabled: true, label: "fixloop" })).status).toBe(200);
    const { n, gh } = await labelledIssue("octocat", "octocat", "weather-cli", "fixloop");
    const before = (await runsOf(me.id)).length;
    const sync = await syncRepository(me.headers, "octocat/weather-cli");
    expect(sync.status).toBe(200);
    const runs = await runsOf(me.id);
    expect(runs).toHaveLength(before + 1);
    expect(runs.every((r) => (r.input as { trigger?: string }).trigger === "label")).toBe(true);
    expect(await comments(gh, "octocat", "weather-cli", n)).toHaveLength(1);
    await syncRepository(me.headers, "octocat/weather-cli");
    expect(await runsOf(me.id)).toHaveLength(before + 1);
  });

  it("starts no run when the owner's monthly quota is used up, and says so once on the issue", async () => {
    const me = await owner("hubot");
    expect((await setTrigger(me.headers, "hubot/markdown-lint", { enabled: true, label: "fixloop" })).status).toBe(200);
    const { periodStart } = await currentUsagePeriod(stack.db, me.id);
    await stack.db
      .insertInto("usage_counters")
      .values({ user_id: me.id, period_start: periodStart, used: 10_000 })
      .execute();
    const { n, gh, repositoryId } = await labelledIssue("hubot", "hubot", "markdown-lint", "fixloop");
    const event = {
      repositoryId,
      repoFullName: "hubot/markdown-lint",
      issueNumber: n,
      label: "fixloop",
      senderLogin: "hubot",
    };
    expect((await handleLabeledIssue(stack.deps, event)).status).toBe("over_quota");
    expect((await handleLabeledIssue(stack.deps, event)).status).toBe("duplicate");
    expect(await runsOf(me.id)).toEqual([]);
    const said = await comments(gh, "hubot", "markdown-lint", n);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("monthly quota");
    expect(stack.logs.some((l) => l.includes('"outcome":"over_quota"'))).toBe(true);
  });

  it("starts no run when the repository's contribution rules refuse AI contributions, and logs why", async () => {
    const me = await owner("opencommons");
    expect((await setTrigger(me.headers, "opencommons/no-robots", { enabled: true, label: "fixloop" })).status).toBe(
      200,
    );
    const { n, gh, repositoryId } = await labelledIssue("opencommons", "opencommons", "no-robots", "fixloop");
    const event = {
      repositoryId,
      repoFullName: "opencommons/no-robots",
      issueNumber: n,
      label: "fixloop",
      senderLogin: "opencommons",
    };
    expect((await handleLabeledIssue(stack.deps, event)).status).toBe("blocked");
    expect(await runsOf(me.id)).toEqual([]);
    expect(await comments(gh, "opencommons", "no-robots", n)).toEqual([]);
    expect(stack.logs.some((l) => l.includes("contribution rules block a solve") && l.includes("not accepted"))).toBe(
      true,
    );
  });

  it("gives the claim back when GitHub fails midway, so the next delivery starts the run", async () => {
    const me = await owner("octocat");
    expect((await setTrigger(me.headers, "octocat/url-shortener", { enabled: true, label: "fixloop" })).status).toBe(
      200,
    );
    const { n, repositoryId } = await labelledIssue("octocat", "octocat", "url-shortener", "fixloop");
    const event = {
      repositoryId,
      repoFullName: "octocat/url-shortener",
      issueNumber: n,
      label: "fixloop",
      senderLogin: null,
    };
    // The contribution rules (7 files, read at once) are read after the claim: rate-limited for an hour, that read fails.
    stack.github.control.failNext({
      path: /url-shortener\/contents\//,
      status: 403,
      kind: "primary",
      retryAfter: 3600,
      times: 7,
    });
    await expect(handleLabeledIssue(stack.deps, event)).rejects.toThrow();
    expect((await handleLabeledIssue(stack.deps, event)).status).toBe("started");
  });

  it("refuses a label name GitHub would not take, and keeps the setting", async () => {
    const me = await owner("octocat");
    for (const label of ["x".repeat(51), "a,b", " "]) {
      const res = await setTrigger(me.headers, "octocat/todo-api", { enabled: true, label });
      expect(res.status).toBe(400);
    }
    const res = await getTrigger(me.headers, "octocat/todo-api");
    expect(await res.json()).toEqual({
      trigger: { enabled: true, label: "fixloop", allowedSenders: [] },
      lastRefused: null,
    });
  });
  it("starts no second solve while the issue's last solution awaits review, and the repository's settings say why", async () => {
    const me = await owner("octocat");
    const full = "octocat/weather-cli";
    expect((await setTrigger(me.headers, full, { enabled: true, label: "fixloop" })).status).toBe(200);
    const { n, gh, repositoryId } = await labelledIssue("octocat", "octocat", "weather-cli", "fixloop");
    const first = await handleLabeledIssue(stack.deps, {
      repositoryId,
      repoFullName: full,
      issueNumber: n,
      label: "fixloop",
      senderLogin: "octocat",
    });
    if (first.status !== "started") throw new Error(`expected a started run, got ${first.status}`);
    // The run ended with a solution the user has not reviewed yet.
    await stack.db.updateTable("solve_runs").set({ status: "completed" }).where("id", "=", first.runId).execute();
    const solution = await stack.db
      .insertInto("solutions")
      .values({
        user_id: me.id,
        issue_id: first.issueId,
        status: "pending",
        analysis: "The forecast reads the wrong field.",
        proposed_solution: "Read temperature_2m.",
        ai_model: "llama-3.3-70b-versatile",
        confidence: 80,
        files_changed: JSON.stringify([]),
        metadata: JSON.stringify({}),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const before = (await runsOf(me.id)).length;
    // Another label the trigger now watches, added by a maintainer: refused, no claim taken.
    expect((await setTrigger(me.headers, full, { enabled: true, label: "ai-fix" })).status).toBe(200);
    await gh.rest.issues.addLabels({ owner: "octocat", repo: "weather-cli", issue_number: n, labels: ["ai-fix"] });
    const event = { repositoryId, repoFullName: full, issueNumber: n, label: "ai-fix", senderLogin: "octocat" };
    expect(await handleLabeledIssue(stack.deps, event)).toMatchObject({
      status: "awaiting_review",
      issueId: first.issueId,
    });
    const settings = async () => (await getTrigger(me.headers, full)).json();
    expect((await settings()).lastRefused).toMatchObject({ issueNumber: n, sender: "octocat" });
    expect((await settings()).lastRefused?.reason).toContain(`a solution of issue #${n} awaits review`);
    // The sync's path (no webhook) takes the same rule: it finds the label and starts nothing.
    const sync = await syncRepository(me.headers, full);
    expect(sync.status).toBe(200);
    expect(await runsOf(me.id)).toHaveLength(before);
    expect((await settings()).lastRefused).toMatchObject({ issueNumber: n, sender: null });
    expect(await comments(gh, "octocat", "weather-cli", n)).toHaveLength(1);
    // Once the solution is reviewed (rejected), the label starts the next solve.
    await stack.db.updateTable("solutions").set({ status: "rejected" }).where("id", "=", solution.id).execute();
    expect((await handleLabeledIssue(stack.deps, event)).status).toBe("started");
    expect(await runsOf(me.id)).toHaveLength(before + 1);
  });
});
