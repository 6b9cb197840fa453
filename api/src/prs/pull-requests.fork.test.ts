import { execFileSync } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { gitBranches, gitShow, seedSolution } from "@fixloop/testkit";
import { pullRequests } from "@fixloop/db";
import { branchName } from "@fixloop/worker";
import { approve, prStack, pushCommit, writes, storedAsOnGithub } from "../../test/pull-requests.fixtures";

let t: Awaited<ReturnType<typeof prStack>>;
beforeAll(async () => {
  t = await prStack();
  await storedAsOnGithub(t, "octocat", "todo-api");
});

const rev = (dir: string, r: string) =>
  execFileSync("git", ["--git-dir", dir, "rev-parse", r], { encoding: "utf8" }).trim();

describe("pull requests from a fork and on a moving base", () => {
  it("brings the fork up to date, pushes the branch to it and opens the pull request on upstream", async () => {
    const hubotGh = t.asUser("hubot");
    await hubotGh.rest.repos.createFork({ owner: "octocat", repo: "todo-api" });
    const forkDir = t.control.gitDir("hubot", "todo-api");
    // Upstream moves on after the fork was made; the fix must still land on upstream's head.
    const upstreamHead = await pushCommit(t.asUser("octocat"), "octocat", "todo-api", "main", {
      "NOTES.md": "moved\n",
    });
    const hubot = await t.stack.signIn("hubot", { scopes: ["public_repo"] });
    // The fork as the import stores it, under the stand-in's id (upstream is, see beforeAll).
    await storedAsOnGithub(t, "hubot", "todo-api");
    const validate = gitShow(t.upstreamDir, "main", "src/validate.ts");
    const fixed = validate.replace("title.length === 0", "title.trim().length === 0");
    expect(fixed).not.toBe(validate);
    const { solutionId, issueId } = await seedSolution(t.stack.db, {
      userId: hubot.user._id,
      repoFullName: "octocat/todo-api",
      issueNumber: 4,
      title: "Whitespace-only titles are accepted",
      imported: { upstream: "octocat/todo-api", fork: "hubot/todo-api" },
      files: [{ filename: "src/validate.ts", action: "modify", originalContent: validate, content: fixed }],
    });
    const res = await approve(t.stack, solutionId, hubot.headers);
    expect(res.status).toBe(200);

    const branch = branchName(4, "Whitespace-only titles are accepted");
    expect(gitBranches(forkDir)).toContain(branch);
    expect(gitBranches(t.upstreamDir)).not.toContain(branch);
    expect(rev(forkDir, `${branch}^`)).toBe(upstreamHead);
    expect(rev(forkDir, "main")).toBe(upstreamHead);
    expect(gitShow(forkDir, branch, "src/validate.ts")).toBe(fixed);

    const pulls = t.control.listPulls("octocat", "todo-api").filter((p) => p.head.ref === branch);
    expect(pulls).toHaveLength(1);
    expect(pulls[0]).toMatchObject({
      head: { owner: "hubot", repo: "todo-api" },
      base: { ref: "main" },
      user: "hubot",
    });
    expect(pulls[0]?.body).toContain("Fixes #4");
    const issue = await t.stack.db
      .selectFrom("issues")
      .select(["repository_github_id", "fork_github_id"])
      .where("id", "=", issueId)
      .executeTakeFirstOrThrow();
    const row = await pullRequests
      .selectPullRequests(t.stack.db)
      .where("pull_requests.issue_id", "=", issueId)
      .executeTakeFirstOrThrow();
    // Stored by the ids GitHub answered for upstream and the fork, which the seeded issue names too.
    const { data: upstream } = await t.asUser("octocat").rest.repos.get({ owner: "octocat", repo: "todo-api" });
    const { data: fork } = await hubotGh.rest.repos.get({ owner: "hubot", repo: "todo-api" });
    expect([issue.repository_github_id, issue.fork_github_id]).toEqual([String(upstream.id), String(fork.id)]);
    expect(row).toMatchObject({
      base_github_id: issue.repository_github_id,
      head_github_id: issue.fork_github_id,
      repo_full_name: "octocat/todo-api",
      head_repo_full_name: "hubot/todo-api",
      base_branch: "main",
      branch_name: branch,
    });
  });

  it("commits on the new head when the default branch moved but the files still apply", async () => {
    const due = gitShow(t.upstreamDir, "main", "src/due.ts");
    const { solutionId } = await seedSolution(t.stack.db, {
      userId: t.octocat.user._id,
      repoFullName: "octocat/todo-api",
      issueNumber: 5,
      title: "Todos due today are already marked overdue",
      files: [
        {
          filename: "src/due.ts",
          action: "modify",
          originalContent: due,
          content: due.replace("< now.getTime()", "+ 86_400_000 <= now.getTime()"),
        },
      ],
    });
    await t.stack.db
      .updateTable("solutions")
      .set({ base_commit_sha: rev(t.upstreamDir, "main") })
      .where("id", "=", solutionId)
      .execute();
    const head = await pushCommit(t.asUser("octocat"), "octocat", "todo-api", "main", {
      "CHANGELOG.md": "unrelated\n",
    });
    const res = await approve(t.stack, solutionId, t.octocat.headers);
    expect(res.status).toBe(200);
    expect(rev(t.upstreamDir, `${branchName(5, "Todos due today are already marked overdue")}^`)).toBe(head);
  });

  it("fails with a conflict and leaves nothing behind when a changed file moved on the default branch", async () => {
    const stale = "export function isOverdue() { return false; }\n";
    const { solutionId } = await seedSolution(t.stack.db, {
      userId: t.octocat.user._id,
      repoFullName: "octocat/todo-api",
      issueNumber: 6,
      title: "Conflicting fix",
      files: [
        {
          filename: "src/due.ts",
          action: "modify",
          originalContent: stale,
          content: "export const isOverdue = () => true;\n",
        },
      ],
    });
    const branchesBefore = gitBranches(t.upstreamDir);
    t.control.clearRequestLog();
    const res = await approve(t.stack, solutionId, t.octocat.headers);
    expect(res.status).toBe(409);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("pull_request.conflict");
    expect(error.message).toMatch(/conflict: src\/due\.ts changed/);
    expect(writes(t.control.requestLog)).toEqual([]);
    expect(gitBranches(t.upstreamDir)).toEqual(branchesBefore);
    expect(
      await t.stack.db.selectFrom("pull_requests").selectAll().where("solution_id", "=", solutionId).execute(),
    ).toEqual([]);
    // Approving again retries the job (the failed one is replaced) and meets the same conflict.
    const retry = await approve(t.stack, solutionId, t.octocat.headers);
    expect(retry.status).toBe(409);
    expect(writes(t.control.requestLog)).toEqual([]);
  });

  it("syncs pull request status with conditional requests: 304 while unchanged, merged after a merge", async () => {
    const { solutionId } = await seedSolution(t.stack.db, {
      userId: t.octocat.user._id,
      repoFullName: "octocat/todo-api",
      issueNumber: 7,
      title: "Sync me",
      files: [{ filename: "docs/sync.md", action: "create", originalContent: "", content: "sync\n" }],
    });
    expect((await approve(t.stack, solutionId, t.octocat.headers)).status).toBe(200);
    const row = await t.stack.db
      .selectFrom("pull_requests")
      .selectAll()
      .where("solution_id", "=", solutionId)
      .executeTakeFirstOrThrow();

    const sync = async () => {
      const res = await t.api("/prs/sync", { method: "POST" });
      expect(res.status).toBe(200);
      return ((await res.json()) as { pullRequests: { prNumber: number; status: string }[] }).pullRequests.find(
        (p) => p.prNumber === row.pr_number,
      );
    };
    expect((await sync())?.status).toBe("open");
    t.control.clearRequestLog();
    expect((await sync())?.status).toBe("open");
    const reads = t.control.requestLog.filter((r) => r.path.endsWith(`/pulls/${row.pr_number}`));
    expect(reads.map((r) => r.status)).toEqual([304]);

    await t.control.mergePull("octocat", "todo-api", row.pr_number);
    expect((await sync())?.status).toBe("merged");
  });
});
