import { beforeAll, describe, expect, it } from "vitest";
import { gitBranches, gitShow, seedSolution } from "@fixloop/testkit";
import { pullRequests } from "@fixloop/db";
import { branchName } from "@fixloop/worker";
import { approve, prStack, recordRevision, storedAsOnGithub, writes } from "../../test/pull-requests.fixtures";

let t: Awaited<ReturnType<typeof prStack>>;
let validate: string;
beforeAll(async () => {
  t = await prStack();
  validate = gitShow(t.upstreamDir, "main", "src/validate.ts");
});

const fixed = () => validate.replace("title.length === 0", "title.trim().length === 0");

const trimmed = () => validate.replace("title.length === 0", 'title.trim() === ""');

const pullRow = async (solutionId: string) => {
  const pr = await pullRequests
    .selectPullRequests(t.stack.db)
    .where("pull_requests.solution_id", "=", solutionId)
    .executeTakeFirstOrThrow();
  return { repo_full_name: pr.repo_full_name, head_repo_full_name: pr.head_repo_full_name, pr_number: pr.pr_number };
};

/** Every write GitHub answered with a redirect: a client re-sends a redirected POST as a GET, so it never happens. */
const redirectedWrites = () => writes(t.control.requestLog).filter((r) => r.status === 301);

// No webhook reaches this stack: Fixloop keeps knowing each repository by the name it had at import or sync.
describe("a pull request on a repository renamed on GitHub before Fixloop heard of it", () => {
  it("is opened on an imported issue's upstream under its new name", async () => {
    await t.asUser("hubot").rest.repos.createFork({ owner: "octocat", repo: "todo-api" });
    await storedAsOnGithub(t, "octocat", "todo-api");
    await storedAsOnGithub(t, "hubot", "todo-api");
    const hubot = await t.stack.signIn("hubot", { scopes: ["public_repo"] });
    const { solutionId } = await seedSolution(t.stack.db, {
      userId: hubot.user._id,
      repoFullName: "octocat/todo-api",
      issueNumber: 4,
      title: "Whitespace-only titles are accepted",
      imported: { upstream: "octocat/todo-api", fork: "hubot/todo-api" },
      files: [{ filename: "src/validate.ts", action: "modify", originalContent: validate, content: fixed() }],
    });
    await t.control.renameRepository("octocat", "todo-api", "todo-service");
    t.control.clearRequestLog();

    const res = await approve(t.stack, solutionId, hubot.headers);
    expect(res.status).toBe(200);
    expect(redirectedWrites()).toEqual([]);
    const branch = branchName(4, "Whitespace-only titles are accepted");
    expect(gitShow(t.control.gitDir("hubot", "todo-api"), branch, "src/validate.ts")).toBe(fixed());
    const pulls = t.control.listPulls("octocat", "todo-service").filter((p) => p.head.ref === branch);
    expect(pulls).toHaveLength(1);
    expect(pulls[0]).toMatchObject({ head: { owner: "hubot", repo: "todo-api" }, user: "hubot" });
    expect(await pullRow(solutionId)).toEqual({
      repo_full_name: "octocat/todo-service",
      head_repo_full_name: "hubot/todo-api",
      pr_number: pulls[0]?.number,
    });
  });

  it("is opened on the user's own repository under its new name, the branch pushed there", async () => {
    // Fixloop knows the repository as octocat/todo-service (above); GitHub renames it again.
    const { solutionId } = await seedSolution(t.stack.db, {
      userId: t.octocat.user._id,
      repoFullName: "octocat/todo-service",
      issueNumber: 5,
      title: "Titles of spaces only are accepted",
      files: [{ filename: "src/validate.ts", action: "modify", originalContent: validate, content: fixed() }],
    });
    await t.control.renameRepository("octocat", "todo-service", "todo-app");
    t.control.clearRequestLog();

    const res = await approve(t.stack, solutionId, t.octocat.headers);
    expect(res.status).toBe(200);
    expect(redirectedWrites()).toEqual([]);
    const branch = branchName(5, "Titles of spaces only are accepted");
    expect(gitBranches(t.control.gitDir("octocat", "todo-app"))).toContain(branch);
    const pulls = t.control.listPulls("octocat", "todo-app").filter((p) => p.head.ref === branch);
    expect(pulls).toHaveLength(1);
    expect(pulls[0]).toMatchObject({ head: { owner: "octocat", repo: "todo-app" }, user: "octocat" });
    expect(await pullRow(solutionId)).toEqual({
      repo_full_name: "octocat/todo-app",
      head_repo_full_name: "octocat/todo-app",
      pr_number: pulls[0]?.number,
    });
  });
});

const pullId = async (solutionId: string) =>
  (
    await t.stack.db
      .selectFrom("pull_requests")
      .select("id")
      .where("solution_id", "=", solutionId)
      .executeTakeFirstOrThrow()
  ).id;

const headCommit = async (owner: string, repo: string, branch: string) => {
  const gh = t.asUser(owner);
  const ref = await gh.rest.git.getRef({ owner, repo, ref: `heads/${branch}` });
  return (await gh.rest.git.getCommit({ owner, repo, commit_sha: ref.data.object.sha })).data;
};

/** The pull request as the API lists it to `headers`' user. */
const listed = async (solutionId: string, headers: Record<string, string>) => {
  const res = await t.api("/prs", { headers });
  expect(res.status).toBe(200);
  const { pullRequests } = (await res.json()) as { pullRequests: Array<Record<string, unknown>> };
  return pullRequests.find((p) => p.solutionId === solutionId);
};

/** GitHub's page of pull request `number` of owner/repo, as GitHub answers it. */
const pageOnGithub = async (owner: string, repo: string, number: number) =>
  (await t.asUser(owner).rest.pulls.get({ owner, repo, pull_number: number })).data.html_url;

describe("a new revision pushed to a pull request whose repository was renamed on GitHub before Fixloop heard of it", () => {
  it("lands on the branch of the user's own repository under its new name, not on a new one that took the old name", async () => {
    // Fixloop knows the repository as octocat/todo-app (above).
    const { solutionId } = await seedSolution(t.stack.db, {
      userId: t.octocat.user._id,
      repoFullName: "octocat/todo-app",
      issueNumber: 6,
      title: "Blank titles get through",
      files: [{ filename: "src/validate.ts", action: "modify", originalContent: validate, content: fixed() }],
    });
    expect((await approve(t.stack, solutionId, t.octocat.headers)).status).toBe(200);
    const branch = branchName(6, "Blank titles get through");
    const opened = await headCommit("octocat", "todo-app", branch);
    await recordRevision(t.stack.db, t.octocat.user._id, solutionId, "src/validate.ts", trimmed());
    await t.control.renameRepository("octocat", "todo-app", "todo-web");
    // A new repository takes the former name: the push reads the pull request's repository by id, never by that name.
    await t.control.createRepository("octocat", "todo-app");
    t.control.clearRequestLog();

    const res = await t.api(`/prs/${await pullId(solutionId)}/push`, { method: "POST" });
    const body = (await res.json()) as Record<string, any>;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ status: "pushed", revision: 2 });
    expect(redirectedWrites()).toEqual([]);
    expect(gitShow(t.control.gitDir("octocat", "todo-web"), branch, "src/validate.ts")).toBe(trimmed());
    expect(gitBranches(t.control.gitDir("octocat", "todo-app"))).toEqual(["main"]);
    const pushed = await headCommit("octocat", "todo-web", branch);
    expect(pushed.sha).toBe(body.commitSha);
    expect(pushed.parents.map((p) => p.sha)).toEqual([opened.sha]);
    const pull = t.control.listPulls("octocat", "todo-web").find((p) => p.head.ref === branch);
    expect(pull?.body).toContain(`Revision 2 pushed as [${pushed.sha.slice(0, 7)}]`);
    // The pull request's page links where it lives now, and its names are the current ones.
    const page = await pageOnGithub("octocat", "todo-web", pull?.number ?? 0);
    expect(page).toMatch(/\/octocat\/todo-web\/pull\/\d+$/);
    expect(body.githubUrl).toBe(page);
    expect(await listed(solutionId, t.octocat.headers)).toMatchObject({
      repoFullName: "octocat/todo-web",
      headRepoFullName: "octocat/todo-web",
      htmlUrl: page,
    });
  });

  it("lands on the renamed fork of an imported issue, the pull request on the renamed upstream updated", async () => {
    // hubot/todo-api is hubot's fork of octocat's repository, now octocat/todo-web.
    const hubot = await t.stack.signIn("hubot", { scopes: ["public_repo"] });
    const { solutionId } = await seedSolution(t.stack.db, {
      userId: hubot.user._id,
      repoFullName: "octocat/todo-web",
      issueNumber: 7,
      title: "Titles of tabs only are accepted",
      imported: { upstream: "octocat/todo-web", fork: "hubot/todo-api" },
      files: [{ filename: "src/validate.ts", action: "modify", originalContent: validate, content: fixed() }],
    });
    expect((await approve(t.stack, solutionId, hubot.headers)).status).toBe(200);
    const branch = branchName(7, "Titles of tabs only are accepted");
    const opened = await headCommit("hubot", "todo-api", branch);
    await recordRevision(t.stack.db, hubot.user._id, solutionId, "src/validate.ts", trimmed());
    await t.control.renameRepository("hubot", "todo-api", "todo-fork");
    await t.control.renameRepository("octocat", "todo-web", "todo-lib");
    t.control.clearRequestLog();

    const res = await t.api(`/prs/${await pullId(solutionId)}/push`, { method: "POST", headers: hubot.headers });
    const body = (await res.json()) as Record<string, any>;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ status: "pushed", revision: 2 });
    expect(redirectedWrites()).toEqual([]);
    expect(gitShow(t.control.gitDir("hubot", "todo-fork"), branch, "src/validate.ts")).toBe(trimmed());
    const pushed = await headCommit("hubot", "todo-fork", branch);
    expect(pushed.sha).toBe(body.commitSha);
    expect(pushed.parents.map((p) => p.sha)).toEqual([opened.sha]);
    const pull = t.control.listPulls("octocat", "todo-lib").find((p) => p.head.ref === branch);
    expect(pull).toMatchObject({ head: { owner: "hubot", repo: "todo-fork" } });
    expect(pull?.body).toContain(`Revision 2 pushed as [${pushed.sha.slice(0, 7)}]`);
    const page = await pageOnGithub("octocat", "todo-lib", pull?.number ?? 0);
    expect(page).toMatch(/\/octocat\/todo-lib\/pull\/\d+$/);
    expect(body.githubUrl).toBe(page);
    expect(await listed(solutionId, hubot.headers)).toMatchObject({
      repoFullName: "octocat/todo-lib",
      headRepoFullName: "hubot/todo-fork",
      htmlUrl: page,
    });
  });
});
