import { beforeAll, describe, expect, it } from "vitest";
import { Octokit } from "@octokit/rest";
import { pullRequestEvents, reviewAddressing } from "@fixloop/db";
import { gitShow, seedSolution } from "@fixloop/testkit";
import { branchName } from "@fixloop/worker";
import {
  approveVia,
  openedPullRequest,
  prStack,
  recordRevision,
  storedAsOnGithub,
  writes,
} from "../../test/pull-requests.fixtures";

let t: Awaited<ReturnType<typeof prStack>>;
beforeAll(async () => {
  t = await prStack({
    envOf: (control) => {
      const app = control.defaultApp();
      return { GITHUB_APP_ID: String(app.id), GITHUB_APP_SLUG: app.slug, GITHUB_APP_PRIVATE_KEY: app.pem };
    },
  });
  await storedAsOnGithub(t, "octocat", "todo-api");
  // Two repositories: a job's token is narrowed to one of them.
  const id = t.control.install("octocat", "octocat", ["todo-api", "url-shortener"]);
  const setup = await t.octocatApi.github.app.setup.$get({
    query: { installation_id: String(id), setup_action: "install" },
  });
  expect(setup.headers.get("location")).toMatch(/installed=true$/);
});

describe("a pull request on a repository the App is installed on", () => {
  it("is written by the App's bot with a token minted for the job and narrowed to the repository, and names the approving user", async () => {
    const { solutionId } = await seedSolution(t.stack.db, {
      userId: t.octocat.user._id,
      repoFullName: "octocat/todo-api",
      issueNumber: 3,
      files: [{ filename: "src/paginate.ts", action: "modify", originalContent: t.paginate, content: t.fixedPaginate }],
    });
    t.control.clearRequestLog();
    const res = await approveVia(t.octocatApi, solutionId, { comments: "LGTM" });
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
    const githubUrl = await openedPullRequest(res);
    const pull = t.control.listPulls("octocat", "todo-api").find((p) => p.htmlUrl === githubUrl);
    expect(pull?.user).toBe("fixloop-sandbox[bot]");
    expect(pull?.body).toContain("octocat");
    const minted = t.control.requestLog.filter((r) => r.path.endsWith("/access_tokens"));
    expect(minted).toHaveLength(1);
    const written = writes(t.control.requestLog).filter((r) => !r.path.endsWith("/access_tokens"));
    expect(written.length).toBeGreaterThan(0);
    expect(written.every((r) => r.token?.startsWith("ghs_"))).toBe(true);
    // No token reached the logs.
    expect(t.stack.logs.some((l) => /ghs_[A-Za-z0-9_-]{10}/.test(l))).toBe(false);
  });
});

describe("a new revision of a pull request on a repository the App is installed on", () => {
  it("is pushed, and its review thread answered, by the App's bot with a token minted for the job, one that another repository refuses", async () => {
    const fixed = t.fixedPaginate;
    const { solutionId } = await seedSolution(t.stack.db, {
      userId: t.octocat.user._id,
      repoFullName: "octocat/todo-api",
      issueNumber: 4,
      title: "Second page repeats an item",
      files: [{ filename: "src/paginate.ts", action: "modify", originalContent: t.paginate, content: fixed }],
    });
    expect((await approveVia(t.octocatApi, solutionId)).status).toBe(200);
    const row = await t.stack.db
      .selectFrom("pull_requests")
      .select(["id", "pr_number", "branch_name"])
      .where("solution_id", "=", solutionId)
      .executeTakeFirstOrThrow();
    // A reviewer's comment on the pull request, asked to be addressed by the revision.
    const reviewer = t.asUser("hubot");
    const head = await reviewer.rest.git.getRef({
      owner: "octocat",
      repo: "todo-api",
      ref: `heads/${row.branch_name}`,
    });
    const asked = await reviewer.rest.pulls.createReviewComment({
      owner: "octocat",
      repo: "todo-api",
      pull_number: row.pr_number,
      body: "Say where pages start.",
      path: "src/paginate.ts",
      line: 1,
      commit_id: head.data.object.sha,
    });
    await pullRequestEvents.recordEvent(t.stack.db, row.id, {
      kind: "review_comment",
      sourceId: String(asked.data.id),
      actor: "hubot",
      state: null,
      title: null,
      body: asked.data.body,
      path: "src/paginate.ts",
      line: 1,
      url: asked.data.html_url,
      occurredAt: asked.data.created_at,
    });
    await reviewAddressing.requestAddressing(t.stack.db, row.id, [String(asked.data.id)]);
    const revised = `${fixed}\n// pages start at 1\n`;
    await recordRevision(t.stack.db, t.octocat.user._id, solutionId, "src/paginate.ts", revised);
    t.control.clearRequestLog();
    const res = await t.octocatApi.prs[":id"].push.$post({ param: { id: row.id } });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ status: "pushed", revision: 2, replies: 1 });
    const thread = await reviewer.rest.pulls.listReviewComments({
      owner: "octocat",
      repo: "todo-api",
      pull_number: row.pr_number,
    });
    expect(thread.data.filter((c) => c.in_reply_to_id === asked.data.id).map((c) => c.user?.login)).toEqual([
      "fixloop-sandbox[bot]",
    ]);
    const branch = branchName(4, "Second page repeats an item");
    expect(gitShow(t.upstreamDir, branch, "src/paginate.ts")).toBe(revised);
    const written = writes(t.control.requestLog).filter((r) => !r.path.endsWith("/access_tokens"));
    // Tree, commit, ref, the reply on the thread, the body's evidence.
    expect(written.map((r) => r.method).sort()).toEqual(["PATCH", "PATCH", "POST", "POST", "POST"]);
    expect(written.every((r) => r.token?.startsWith("ghs_"))).toBe(true);
    // The job's token is narrowed to octocat/todo-api: GitHub refuses it on octocat's other repository.
    const token = written[0]?.token ?? "";
    const other = await new Octokit({ baseUrl: t.stack.github.url, auth: token }).rest.git
      .createRef({ owner: "octocat", repo: "url-shortener", ref: "refs/heads/fixloop/elsewhere", sha: "0".repeat(40) })
      .then(
        () => 201,
        (e: { status: number }) => e.status,
      );
    expect(other).toBe(403);
    expect(t.stack.logs.some((l) => /ghs_[A-Za-z0-9_-]{10}/.test(l))).toBe(false);
  });
});
