import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { insertIssue } from "@fixloop/testkit";
import { createGithubClient } from "@fixloop/runtime";
import { readSse, type SseEvent } from "../../test/sse.testkit";
import { solveKit } from "../../test/solve.testkit";
import { approveVia, openedPullRequest, pushCommit } from "../../test/pull-requests.fixtures";
import { errorOf } from "../../test/testing";

// Seeded: octocat/todo-api has main and release-1.x, whose tree adds RELEASE-1.x.md.
const t = solveKit({ workers: ["solve", "pull-request", "syntax-check", "fork"], logLevel: "warn" });
const DUE = {
  repo: "octocat/todo-api",
  number: 5,
  title: "Todos due today are already marked overdue",
  // It names the release line's own test, so that test is among the related tests run.
  body: "A todo is reported overdue all day on its due day. The check is `isOverdue()` in `src/due.ts`. The 1.x line must keep passing test/release.test.js.",
};
let gitDir = "";
let issue: { id: string };
const head = (branch: string) =>
  execFileSync("git", ["--git-dir", gitDir, "rev-parse", `refs/heads/${branch}`], { encoding: "utf8" }).trim();

beforeAll(async () => {
  await t.stack.authorizeRepos({ cookie: t.headers.cookie ?? "", origin: t.headers.origin ?? "" }, "octocat");
  gitDir = t.stack.github.control.gitDir("octocat", "todo-api");
  // Branches of Fixloop's earlier pull requests, and a user's own branch that only looks alike.
  for (const b of ["fixloop/issue-9-old-fix", "fixloop/issue-3", "fixloop/issue-notes"])
    execFileSync("git", ["--git-dir", gitDir, "branch", b, "main"]);
  issue = await insertIssue(t.stack.db, t.userId, DUE);
});

async function runsOf(issueId: string) {
  return t.stack.db.selectFrom("solve_runs").select(["id", "input"]).where("issue_id", "=", issueId).execute();
}

describe("choosing the base branch", () => {
  it("lists the repository's branches from GitHub, the default branch first, without Fixloop's own fixloop/issue-<n> branches", async () => {
    const res = await t.api.issues[":id"].branches.$get({ param: { id: issue.id } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      repository: "octocat/todo-api",
      branches: ["main", "fixloop/issue-notes", "release-1.x"],
      defaultBranch: "main",
      truncated: false,
    });
    const unknown = await t.api.issues[":id"].branches.$get({ param: { id: "00000000-0000-4000-8000-000000000000" } });
    expect(unknown.status).toBe(404);
  });

  it("refuses a branch that is not on GitHub, or not a branch name, and starts nothing", async () => {
    const missing = await t.generate({ issueId: issue.id, baseBranch: "release-9.x" });
    expect(missing.status).toBe(422);
    expect(await errorOf(missing)).toEqual({
      code: "branch.not_found",
      message: "The branch release-9.x does not exist in octocat/todo-api on GitHub",
    });
    const malformed = await t.generate({ issueId: issue.id, baseBranch: "main..evil" });
    expect(malformed.status).toBe(400);
    expect((await errorOf(malformed)).code).toBe("request.invalid");
    expect(await runsOf(issue.id)).toEqual([]);
  });

  it("reads, tests and opens the pull request against the chosen branch; approval on another branch is refused", async () => {
    const started = await t.generate({ issueId: issue.id, baseBranch: "release-1.x" });
    expect(started.status).toBe(202);
    const { runId } = await started.json();
    expect((await runsOf(issue.id)).map((r) => r.input)).toEqual([{ baseBranch: "release-1.x" }]);
    const end = (await readSse(await t.events(runId))).at(-1) as SseEvent;
    expect(end.event, JSON.stringify(end.data)).toBe("completed");
    const solutionId = (end.data as { solutionId: string }).solutionId;

    const context = await t.stack.db
      .selectFrom("run_steps")
      .select("output")
      .where("run_id", "=", runId)
      .where("step", "=", "context")
      .executeTakeFirstOrThrow();
    const out = context.output as { defaultBranch: string; commitSha: string; allPaths: string[] };
    expect(out.defaultBranch).toBe("release-1.x");
    expect(out.commitSha).toBe(head("release-1.x"));
    expect(out.commitSha).not.toBe(head("main"));
    expect(out.allPaths).toContain("RELEASE-1.x.md");
    const view = await (await t.api.validations[":id"].$get({ param: { id: solutionId } })).json();
    expect(view.solution.metadata.baseBranch).toBe("release-1.x");
    // The tests ran on release-1.x's tree: its own test is among them.
    const stored = await t.stack.db
      .selectFrom("solutions")
      .select("metadata")
      .where("id", "=", solutionId)
      .executeTakeFirstOrThrow();
    const tests = (stored.metadata as { tests: { logTail: string } }).tests;
    expect(tests.logTail).toContain("the 1.x line states its support policy");

    const wrong = await approveVia(t.api, solutionId, { baseBranch: "main" });
    expect(wrong.status).toBe(409);
    expect(await errorOf(wrong)).toEqual({
      code: "solution.base_branch_mismatch",
      message:
        "This solution was made and tested against release-1.x; solve the issue again on main to open a pull request against it",
    });
    const still = await t.stack.db
      .selectFrom("solutions")
      .select("status")
      .where("id", "=", solutionId)
      .executeTakeFirstOrThrow();
    expect(still.status).toBe("pending");

    const ok = await approveVia(t.api, solutionId, { baseBranch: "release-1.x" });
    expect(ok.status, await ok.clone().text()).toBe(200);
    const githubUrl = await openedPullRequest(ok);
    const number = Number(githubUrl.split("/").at(-1));
    const gh = createGithubClient({
      baseUrl: t.stack.github.url,
      token: t.stack.github.control.issueToken("octocat", ["public_repo"]),
    });
    const { data: pr } = await gh.rest.pulls.get({ owner: "octocat", repo: "todo-api", pull_number: number });
    expect(pr.base.ref).toBe("release-1.x");
    const { data: commit } = await gh.rest.git.getCommit({
      owner: "octocat",
      repo: "todo-api",
      commit_sha: pr.head.sha,
    });
    expect(commit.parents.map((p) => p.sha)).toEqual([head("release-1.x")]);
  });

  it("solves an imported issue on a branch of the upstream: the fork is brought to it and the pull request targets it upstream", async () => {
    const hubot = await t.stack.signIn("hubot", { scopes: ["public_repo"] });
    const as = t.stack.client(hubot.headers);
    const imported = await as.contributions["import-issue"].$post({
      json: { owner: "octocat", repo: "todo-api", issueNumber: DUE.number, acknowledgeWarnings: true },
    });
    expect(imported.status, await imported.clone().text()).toBe(200);
    const body = await imported.json();
    if (!("issue" in body)) throw new Error(`the import was queued: ${JSON.stringify(body)}`);
    const { issue: mine, fork } = body;
    expect(fork.fullName).toBe("hubot/todo-api");
    // The upstream's release-1.x moves on after the fork was made: the run must read the upstream's head, not the fork's stale copy.
    const octocatGh = createGithubClient({
      baseUrl: t.stack.github.url,
      token: t.stack.github.control.issueToken("octocat", ["public_repo"]),
    });
    const upstreamHead = await pushCommit(octocatGh, "octocat", "todo-api", "release-1.x", {
      "NOTES-1.x.md": "moved on after the fork\n",
    });
    const listed = await (await as.issues[":id"].branches.$get({ param: { id: mine._id } })).json();
    expect(listed.repository).toBe("octocat/todo-api");
    expect(listed.branches.slice(0, 1)).toEqual(["main"]);
    expect(listed.branches).toContain("release-1.x");

    const started = await as.ai["generate-solution"].$post({
      query: {},
      json: { issueId: mine._id, baseBranch: "release-1.x" },
    });
    expect(started.status, await started.clone().text()).toBe(202);
    const { runId } = await started.json();
    const end = (await readSse(await t.stack.app.request(`/api/runs/${runId}/events`, { headers: hubot.headers }))).at(
      -1,
    ) as SseEvent;
    expect(end.event, JSON.stringify(end.data)).toBe("completed");
    const solutionId = (end.data as { solutionId: string }).solutionId;
    const context = await t.stack.db
      .selectFrom("run_steps")
      .select("output")
      .where("run_id", "=", runId)
      .where("step", "=", "context")
      .executeTakeFirstOrThrow();
    const out = context.output as { defaultBranch: string; commitSha: string; allPaths: string[] };
    expect(out).toMatchObject({ defaultBranch: "release-1.x", commitSha: upstreamHead });
    expect(out.allPaths).toContain("NOTES-1.x.md");
    const stored = await t.stack.db
      .selectFrom("solutions")
      .select("metadata")
      .where("id", "=", solutionId)
      .executeTakeFirstOrThrow();
    // The upstream issue does not name the release line's test (the first case shows it runs on that tree):
    // the related tests ran on the fork's copy of release-1.x.
    const ran = (stored.metadata as { tests: { status: string; selection?: { files: { path: string }[] } } }).tests;
    expect(ran.status).toBe("passed");
    expect(ran.selection?.files.length).toBeGreaterThan(0);

    const ok = await approveVia(as, solutionId, { baseBranch: "release-1.x" });
    expect(ok.status, await ok.clone().text()).toBe(200);
    const githubUrl = await openedPullRequest(ok);
    const { data: pr } = await octocatGh.rest.pulls.get({
      owner: "octocat",
      repo: "todo-api",
      pull_number: Number(githubUrl.split("/").at(-1)),
    });
    expect(pr.base.ref).toBe("release-1.x");
    expect(pr.head.repo?.full_name).toBe("hubot/todo-api");
    const { data: commit } = await octocatGh.rest.git.getCommit({
      owner: "hubot",
      repo: "todo-api",
      commit_sha: pr.head.sha,
    });
    expect(commit.parents.map((p) => p.sha)).toEqual([upstreamHead]);
    const forkDir = t.stack.github.control.gitDir("hubot", "todo-api");
    expect(
      execFileSync("git", ["--git-dir", forkDir, "rev-parse", "refs/heads/release-1.x"], { encoding: "utf8" }).trim(),
    ).toBe(upstreamHead);
  });
});
