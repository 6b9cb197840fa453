import { beforeAll, describe, expect, it } from "vitest";
import { gitBranches, gitShow, seedSolution } from "@fixloop/testkit";
import { issues, pullRequests } from "@fixloop/db";
import { createGithubClient } from "@fixloop/runtime";
import { branchName } from "@fixloop/worker";
import { approve, prStack, writes, storedAsOnGithub } from "../../test/pull-requests.fixtures";

let t: Awaited<ReturnType<typeof prStack>>;
let validate: string;
beforeAll(async () => {
  t = await prStack();
  await storedAsOnGithub(t, "octocat", "todo-api");
  validate = gitShow(t.upstreamDir, "main", "src/validate.ts");
});

const fixed = () => validate.replace("title.length === 0", "title.trim().length === 0");

async function seedImported(userId: string, issueNumber: number, title: string, fork: string) {
  return seedSolution(t.stack.db, {
    userId,
    repoFullName: "octocat/todo-api",
    issueNumber,
    title,
    imported: { upstream: "octocat/todo-api", fork },
    files: [{ filename: "src/validate.ts", action: "modify", originalContent: validate, content: fixed() }],
  });
}

const rememberedFork = async (issueId: string) =>
  (await issues.selectIssues(t.stack.db).where("issues.id", "=", issueId).executeTakeFirstOrThrow()).fork_full_name;

describe("the fork of an imported issue at pull request time", () => {
  it("forks again when the user deleted the remembered fork, remembers the new one and opens the pull request", async () => {
    const hubotGh = t.asUser("hubot");
    await hubotGh.rest.repos.createFork({ owner: "octocat", repo: "todo-api", name: "todo-api-fork" });
    await storedAsOnGithub(t, "hubot", "todo-api-fork");
    const hubot = await t.stack.signIn("hubot", { scopes: ["public_repo"] });
    const { solutionId, issueId } = await seedImported(
      hubot.user._id,
      4,
      "Whitespace-only titles are accepted",
      "hubot/todo-api-fork",
    );
    // The user deletes the fork on GitHub after the import.
    const owner = createGithubClient({
      baseUrl: t.stack.github.url,
      token: t.control.issueToken("hubot", ["public_repo", "delete_repo"]),
    });
    expect((await owner.rest.repos.delete({ owner: "hubot", repo: "todo-api-fork" })).status).toBe(204);

    const res = await approve(t.stack, solutionId, hubot.headers);
    expect(res.status).toBe(200);

    const { data: fork } = await hubotGh.rest.repos.get({ owner: "hubot", repo: "todo-api" });
    expect(fork).toMatchObject({ fork: true, parent: { full_name: "octocat/todo-api" } });
    expect(await rememberedFork(issueId)).toBe("hubot/todo-api");
    const branch = branchName(4, "Whitespace-only titles are accepted");
    const forkDir = t.control.gitDir("hubot", "todo-api");
    expect(gitShow(forkDir, branch, "src/validate.ts")).toBe(fixed());
    const pulls = t.control.listPulls("octocat", "todo-api").filter((p) => p.head.ref === branch);
    expect(pulls).toHaveLength(1);
    expect(pulls[0]).toMatchObject({ head: { owner: "hubot", repo: "todo-api" }, user: "hubot" });
    const row = await pullRequests
      .selectPullRequests(t.stack.db)
      .where("pull_requests.solution_id", "=", solutionId)
      .executeTakeFirstOrThrow();
    expect(row.head_repo_full_name).toBe("hubot/todo-api");
  });

  it("refuses, pushing nothing, a repository under the fork's name that is no fork of upstream any more", async () => {
    await t.asUser("monalisa").rest.repos.createFork({ owner: "octocat", repo: "todo-api" });
    // GitHub support detached it from the fork network: a standalone repository now.
    t.control.detachFork("monalisa", "todo-api");
    await storedAsOnGithub(t, "monalisa", "todo-api");
    const monalisa = await t.stack.signIn("monalisa", { scopes: ["public_repo"] });
    const { solutionId, issueId } = await seedImported(monalisa.user._id, 8, "Detached fork", "monalisa/todo-api");
    const forkDir = t.control.gitDir("monalisa", "todo-api");
    const branchesBefore = gitBranches(forkDir);
    t.control.clearRequestLog();

    const res = await approve(t.stack, solutionId, monalisa.headers);
    expect(res.status).toBe(409);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("pull_request.not_a_fork");
    expect(error.message).toContain("monalisa/todo-api is no longer a fork of octocat/todo-api");
    expect(writes(t.control.requestLog)).toEqual([]);
    expect(gitBranches(forkDir)).toEqual(branchesBefore);
    expect(await rememberedFork(issueId)).toBe("monalisa/todo-api");
    expect(t.control.listPulls("octocat", "todo-api").filter((p) => p.head.owner === "monalisa")).toEqual([]);
    const solution = await t.stack.db
      .selectFrom("solutions")
      .select("status")
      .where("id", "=", solutionId)
      .executeTakeFirstOrThrow();
    expect(solution.status).toBe("pending");
  });
});
