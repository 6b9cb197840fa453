import { beforeAll, describe, expect, it } from "vitest";
import { gitBranches, gitShow, seedSolution } from "@fixloop/testkit";
import { branchName } from "@fixloop/worker";
import { prStack, writes } from "../../test/pull-requests.fixtures";

let t: Awaited<ReturnType<typeof prStack>>;
let validate: string;
beforeAll(async () => {
  t = await prStack();
  validate = gitShow(t.upstreamDir, "main", "src/validate.ts");
});

const fixed = () => validate.replace("title.length === 0", "title.trim().length === 0");

const approve = (solutionId: string, headers: Record<string, string>) =>
  t.api(`/validations/${solutionId}/validate`, { method: "POST", headers, body: { status: "approved" } });

const pullRow = (solutionId: string) =>
  t.stack.db
    .selectFrom("pull_requests")
    .select(["repo_full_name", "head_repo_full_name", "pr_number"])
    .where("solution_id", "=", solutionId)
    .executeTakeFirstOrThrow();

/** Every write GitHub answered with a redirect: a client re-sends a redirected POST as a GET, so it never happens. */
const redirectedWrites = () => writes(t.control.requestLog).filter((r) => r.status === 301);

// No webhook reaches this stack: Fixloop keeps knowing each repository by the name it had at import or sync.
describe("a pull request on a repository renamed on GitHub before Fixloop heard of it", () => {
  it("is opened on an imported issue's upstream under its new name", async () => {
    await t.asUser("hubot").rest.repos.createFork({ owner: "octocat", repo: "todo-api" });
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

    const res = await approve(solutionId, hubot.headers);
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

    const res = await approve(solutionId, t.octocat.headers);
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
