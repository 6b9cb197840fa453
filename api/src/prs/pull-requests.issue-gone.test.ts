import { beforeAll, describe, expect, it } from "vitest";
import { gitBranches, gitShow, insertIssue, insertRun, seedSolution } from "@fixloop/testkit";
import { openPullRequest } from "@fixloop/worker";
import { approve, prStack, writes, storedAsOnGithub } from "../../test/pull-requests.fixtures";

let t: Awaited<ReturnType<typeof prStack>>;
let validate: string;
beforeAll(async () => {
  t = await prStack();
  await storedAsOnGithub(t, "octocat", "todo-api");
  validate = gitShow(t.upstreamDir, "main", "src/validate.ts");
});

/** A solution of a new issue of octocat/todo-api, the issue then removed on GitHub by `remove`. */
async function solutionOfRemovedIssue(title: string, remove: (n: number) => void) {
  const [n = 0] = t.control.addIssues("octocat", "todo-api", [{ title }]);
  const seeded = await seedSolution(t.stack.db, {
    userId: t.octocat.user._id,
    repoFullName: "octocat/todo-api",
    issueNumber: n,
    title,
    files: [
      {
        filename: "src/validate.ts",
        action: "modify",
        originalContent: validate,
        content: validate.replace("title.length === 0", "title.trim().length === 0"),
      },
    ],
  });
  remove(n);
  return { ...seeded, n };
}

async function approval(solutionId: string, headers = t.octocat.headers) {
  const res = await approve(t.stack, solutionId, headers);
  return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } };
}

const issueRow = (id: string) =>
  t.stack.db.selectFrom("issues").select(["status", "gone", "moved_to"]).where("id", "=", id).executeTakeFirstOrThrow();
const solutionStatus = async (id: string) =>
  (await t.stack.db.selectFrom("solutions").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;

describe("approving a solution of an issue GitHub no longer has", () => {
  it("opens no pull request for a deleted issue, writes nothing and marks the issue", async () => {
    const { solutionId, issueId, n } = await solutionOfRemovedIssue("Deleted before approval", (n) =>
      t.control.deleteIssue("octocat", "todo-api", n),
    );
    const branches = gitBranches(t.upstreamDir);
    t.control.clearRequestLog();
    const res = await approval(solutionId);
    expect(res.status).toBe(410);
    expect(res.body.error).toEqual({
      code: "pull_request.issue_gone",
      message: "The issue was deleted on GitHub; no pull request is opened for it",
    });
    expect(writes(t.control.requestLog)).toEqual([]);
    expect(gitBranches(t.upstreamDir)).toEqual(branches);
    expect(t.control.listPulls("octocat", "todo-api").filter((p) => p.body?.includes(`#${n}`))).toEqual([]);
    expect(await issueRow(issueId)).toEqual({ status: "closed", gone: "deleted", moved_to: null });
    expect(await solutionStatus(solutionId)).toBe("pending");
  });

  it("opens no pull request claiming to fix an issue transferred to another repository", async () => {
    let moved = 0;
    const { solutionId, issueId } = await solutionOfRemovedIssue("Transferred before approval", (n) => {
      moved = t.control.transferIssue("octocat", "todo-api", n, { owner: "octocat", repo: "url-shortener" });
    });
    t.control.clearRequestLog();
    const res = await approval(solutionId);
    expect(res.status).toBe(410);
    expect(res.body.error?.code).toBe("pull_request.issue_gone");
    expect(res.body.error?.message).toContain(`/octocat/url-shortener/issues/${moved}`);
    expect(writes(t.control.requestLog)).toEqual([]);
    expect(await issueRow(issueId)).toMatchObject({ status: "closed", gone: "transferred" });
    expect(await solutionStatus(solutionId)).toBe("pending");
  });

  it("refuses an imported issue deleted upstream, marking every user's row of it gone and stopping its runs", async () => {
    await t.asUser("hubot").rest.repos.createFork({ owner: "octocat", repo: "todo-api" });
    await storedAsOnGithub(t, "hubot", "todo-api");
    const hubot = await t.stack.signIn("hubot", { scopes: ["public_repo"] });
    const title = "Deleted upstream after the import";
    const [n = 0] = t.control.addIssues("octocat", "todo-api", [{ title }]);
    const imported = await seedSolution(t.stack.db, {
      userId: hubot.user._id,
      repoFullName: "octocat/todo-api",
      issueNumber: n,
      title,
      imported: { upstream: "octocat/todo-api", fork: "hubot/todo-api" },
      files: [
        {
          filename: "src/validate.ts",
          action: "modify",
          originalContent: validate,
          content: validate.replace("title.length === 0", "title.trim().length === 0"),
        },
      ],
    });
    // The same issue synced by its repository's owner, with a solve of it waiting to start.
    const own = await insertIssue(t.stack.db, t.octocat.user._id, { repo: "octocat/todo-api", number: n, title });
    const queued = await insertRun(t.stack.db, { user_id: t.octocat.user._id, issue_id: own.id, status: "queued" });
    t.control.deleteIssue("octocat", "todo-api", n);
    t.control.clearRequestLog();

    const res = await approval(imported.solutionId, hubot.headers);
    expect([res.status, res.body.error?.code]).toEqual([410, "pull_request.issue_gone"]);
    expect(writes(t.control.requestLog)).toEqual([]);
    expect(await issueRow(imported.issueId)).toEqual({ status: "closed", gone: "deleted", moved_to: null });
    expect(await issueRow(own.id)).toEqual({ status: "closed", gone: "deleted", moved_to: null });
    const run = await t.stack.db
      .selectFrom("solve_runs")
      .select(["status", "error_code"])
      .where("id", "=", queued.id)
      .executeTakeFirstOrThrow();
    expect(run).toEqual({ status: "cancelled", error_code: "issue.gone" });
    expect(await solutionStatus(imported.solutionId)).toBe("pending");
  });
});

describe("the pull-request job, when it runs", () => {
  it("asks the issue's standing again: a repository that left the list or an issue marked gone meanwhile opens nothing", async () => {
    const { solutionId, issueId } = await solutionOfRemovedIssue("Standing changed after approval", () => {});
    await t.stack.db.updateTable("solutions").set({ status: "approved" }).where("id", "=", solutionId).execute();
    const job = { userId: t.octocat.user._id, solutionId };
    const branches = gitBranches(t.upstreamDir);
    t.control.clearRequestLog();

    // The repository sync finds it no longer in the user's list: their access row is marked left.
    const leave = (leftAt: Date | null) =>
      t.stack.db
        .insertInto("repositories")
        .values({ user_id: t.octocat.user._id, github_id: repositoryGithubId, left_at: leftAt })
        .onConflict((oc) => oc.columns(["user_id", "github_id"]).doUpdateSet({ left_at: leftAt }))
        .execute();
    const { repository_github_id: repositoryGithubId } = await t.stack.db
      .selectFrom("issues")
      .select("repository_github_id")
      .where("id", "=", issueId)
      .executeTakeFirstOrThrow();
    await leave(new Date());
    await expect(openPullRequest(t.stack.ctx, job)).rejects.toMatchObject({
      code: "repository.access_lost",
      detail: "You no longer have access to this issue's repository on GitHub, so its pull request cannot be opened",
    });
    await leave(null);
    await t.stack.db
      .updateTable("issues")
      .set({ gone: "deleted", status: "closed" })
      .where("id", "=", issueId)
      .execute();
    await expect(openPullRequest(t.stack.ctx, job)).rejects.toMatchObject({
      code: "pull_request.issue_gone",
      detail: "The issue was deleted on GitHub; no pull request is opened for it",
    });
    expect(t.control.requestLog).toEqual([]);
    expect(gitBranches(t.upstreamDir)).toEqual(branches);
  });
});
