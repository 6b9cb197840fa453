import { beforeAll, describe, expect, it } from "vitest";
import { gitBranches, gitShow, seedSolution } from "@fixloop/testkit";
import { approveVia, prStack, pushCommit, storedAsOnGithub } from "../../test/pull-requests.fixtures";
import { errorOf } from "../../test/testing";

let t: Awaited<ReturnType<typeof prStack>>;
beforeAll(async () => {
  t = await prStack();
  await storedAsOnGithub(t, "octocat", "todo-api");
});

describe("a contribution policy added upstream after the import", () => {
  it("refuses the solve and the approval with the policy's reason, and nothing is written upstream", async () => {
    await t.asUser("hubot").rest.repos.createFork({ owner: "octocat", repo: "todo-api" });
    await storedAsOnGithub(t, "hubot", "todo-api");
    const forkDir = t.control.gitDir("hubot", "todo-api");
    const hubot = await t.stack.signIn("hubot", { scopes: ["public_repo"] });
    const readme = gitShow(t.upstreamDir, "main", "README.md");
    const { solutionId, issueId } = await seedSolution(t.stack.db, {
      userId: hubot.user._id,
      repoFullName: "octocat/todo-api",
      issueNumber: 7,
      title: "Document the pagination",
      imported: { upstream: "octocat/todo-api", fork: "hubot/todo-api" },
      files: [{ filename: "README.md", action: "modify", originalContent: readme, content: `${readme}\nPages.\n` }],
    });
    // The import was allowed; then the maintainers refuse AI contributions.
    await pushCommit(t.asUser("octocat"), "octocat", "todo-api", "main", {
      "AI_POLICY.md": "# AI policy\n\nAI-generated contributions are not accepted in this project.\n",
    });
    const asHubot = t.stack.client(hubot.headers);

    const solve = await asHubot.ai["generate-solution"].$post({ query: {}, json: { issueId } });
    expect(solve.status).toBe(409);
    const refused = await errorOf(solve);
    expect(refused.code).toBe("contributions.blocked");
    expect(refused.message).toContain("AI_POLICY.md does not accept AI-assisted contributions");
    expect(await t.stack.db.selectFrom("solve_runs").select("id").where("issue_id", "=", issueId).execute()).toEqual(
      [],
    );

    // The pull-request job reads the rules itself (not only the cache the solve filled).
    await t.stack.deps.redis.del(`${t.stack.deps.queues.prefix}:contribution-policy:octocat/todo-api`);
    const approved = await approveVia(asHubot, solutionId);
    expect(approved.status).toBe(409);
    const blocked = await errorOf(approved);
    expect(blocked.code).toBe("contributions.blocked");
    expect(blocked.message).toContain("AI_POLICY.md");
    const solution = await t.stack.db
      .selectFrom("solutions")
      .select("status")
      .where("id", "=", solutionId)
      .executeTakeFirstOrThrow();
    expect(solution.status).toBe("pending");
    expect(gitBranches(forkDir).filter((b) => b.startsWith("fixloop/"))).toEqual([]);
    expect(t.control.listPulls("octocat", "todo-api")).toEqual([]);
  });
});
