import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

const REPO = "octocat/todo-api";
let me: { id: string; headers: Record<string, string> };
/** The stand-in's id of REPO: what a webhook names it by. */
let repositoryId: number;

const param = { owner: "octocat", repo: "todo-api" };
const repository = () => stack.client(me.headers).github.repositories[":owner"][":repo"];
const setting = async () => (await repository()["label-trigger"].$get({ param })).json();
const put = (json: { enabled: boolean; label: string; allowedSenders?: string[] }) =>
  repository()["label-trigger"].$put({ param, json });
const runsOf = () => stack.db.selectFrom("solve_runs").select(["id", "input"]).where("user_id", "=", me.id).execute();

/** An issue `author` opened with the `bug` label already on it, as an issue template puts it there. */
const templatedIssue = (author: string, title: string) => {
  const [n = 0] = stack.github.control.addIssues("octocat", "todo-api", [{ title, user: author, labels: ["bug"] }]);
  return n;
};

beforeAll(async () => {
  const signed = await stack.signIn("octocat", { scopes: ["public_repo"] });
  me = { id: signed.user._id, headers: { ...signed.headers, "content-type": "application/json" } };
  expect((await stack.client(me.headers).github.repositories.$get({ query: {} })).status).toBe(200);
  expect((await put({ enabled: true, label: "bug" })).status).toBe(200);
  const token = stack.github.control.issueToken("octocat", ["repo"]);
  const res = await fetch(`${stack.github.url}/repos/${REPO}`, { headers: { authorization: `token ${token}` } });
  repositoryId = ((await res.json()) as { id: number }).id;
});

describe("who may start a paid solve by label", () => {
  it("an outsider's issue labelled by its template starts no run, and the repository's settings say whose label and why", async () => {
    const n = templatedIssue("hubot", "Crash when the title is empty");
    const before = (await runsOf()).length;
    const outcome = await handleLabeledIssue(stack.deps, {
      repositoryId,
      repoFullName: REPO,
      issueNumber: n,
      label: "bug",
      senderLogin: "hubot",
    });
    expect(outcome.status).toBe("refused");
    expect(await runsOf()).toHaveLength(before);
    const { lastRefused } = await setting();
    expect(lastRefused).toMatchObject({ issueNumber: n, sender: "hubot" });
    expect(lastRefused?.reason).toBe(
      "hubot has only read access to octocat/todo-api: a label starts a solve only when added by someone with write access, or by a sender listed in these settings",
    );
    // Nothing is claimed: a maintainer adding the label later still starts the run, and it records who.
    const byOwner = await handleLabeledIssue(stack.deps, {
      repositoryId,
      repoFullName: REPO,
      issueNumber: n,
      label: "bug",
      senderLogin: "octocat",
    });
    expect(byOwner.status).toBe("started");
    if (byOwner.status !== "started") return;
    const run = (await runsOf()).find((r) => r.id === byOwner.runId);
    expect(run?.input).toEqual({ trigger: "label", triggerLabel: "bug", triggerSender: "octocat" });
    const view = await (await stack.client(me.headers).runs[":id"].$get({ param: { id: byOwner.runId } })).json();
    expect(view.run.triggerSender).toBe("octocat");
  });

  it("a bot's or auto-labeler's label starts nothing until the owner lists it, then starts the run with the bot as sender", async () => {
    const n = templatedIssue("hubot", "Sorting by due date puts undated todos first");
    const bot = { repositoryId, repoFullName: REPO, issueNumber: n, label: "bug", senderLogin: "issue-labeler[bot]" };
    const before = (await runsOf()).length;
    expect(await handleLabeledIssue(stack.deps, bot)).toMatchObject({ status: "refused" });
    expect((await setting()).lastRefused?.reason).toMatch(
      /^issue-labeler\[bot\] is not a GitHub user with access to octocat\/todo-api/,
    );
    expect(await runsOf()).toHaveLength(before);

    expect((await put({ enabled: true, label: "bug", allowedSenders: ["Issue-Labeler[bot]", "nope!"] })).status).toBe(
      400,
    );
    const saved = await put({
      enabled: true,
      label: "bug",
      allowedSenders: ["Issue-Labeler[bot]", "issue-labeler[bot]"],
    });
    expect(saved.status).toBe(200);
    expect((await setting()).trigger.allowedSenders).toEqual(["issue-labeler[bot]"]);
    const started = await handleLabeledIssue(stack.deps, bot);
    expect(started.status).toBe("started");
    if (started.status !== "started") return;
    const run = (await runsOf()).find((r) => r.id === started.runId);
    expect(run?.input).toMatchObject({ triggerSender: "issue-labeler[bot]" });
  });

  it("the repository sync, which cannot see who added a label, solves no outsider's labelled issue and says why", async () => {
    expect((await put({ enabled: true, label: "bug", allowedSenders: [] })).status).toBe(200);
    const n = templatedIssue("monalisa", "Deleting a todo twice answers 500");
    const before = (await runsOf()).length;
    const sync = await repository().sync.$post({ param });
    expect(sync.status).toBe(200);
    const started = await stack.db
      .selectFrom("solve_runs")
      .innerJoin("issues", "issues.id", "solve_runs.issue_id")
      .select(["issues.issue_number", "issues.author_login"])
      .where("solve_runs.user_id", "=", me.id)
      .orderBy("solve_runs.created_at")
      .offset(before)
      .execute();
    // Only issues their author may trigger (octocat's own) were solved by the sync; never monalisa's or hubot's.
    expect(started.map((r) => r.issue_number)).not.toContain(n);
    expect(started.every((r) => r.author_login === "octocat")).toBe(true);
    const { lastRefused } = await setting();
    expect(lastRefused).toMatchObject({ sender: null });
    expect(lastRefused?.reason).toMatch(
      /^the repository sync cannot tell who added the label, and the issue's author (monalisa|hubot) has only read access to octocat\/todo-api/,
    );
  });
});
