import type { Octokit } from "@octokit/rest";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestSandbox } from "../../../test/github-sandbox";
import { openapiContract, repos, pushBranch } from "../../../test/openapi-contract";

const { check, started } = openapiContract("pulls");
const { o, fork, upstream } = repos;
let t: TestSandbox;
let me: Octokit;
const state = { pr: 0 };
beforeAll(async () => {
  ({ t, me } = started());
  // The pull request's head: octocat's fork with a branch one commit ahead (validated in openapi.git.contract.test.ts).
  await me.request("POST /repos/{owner}/{repo}/forks", upstream);
  const rule = "const TRAILING = /[ \\t]+$/;\n";
  await pushBranch(me, fork, "fix-tabs", { "src/rules/trailing-spaces.js": rule }, "Match trailing tabs");
});

describe("responses match GitHub's OpenAPI description", () => {
  it("pull requests, merge and merge-upstream", async () => {
    const pr = await check(
      me,
      "POST /repos/{owner}/{repo}/pulls",
      { ...upstream, title: "Match trailing tabs", head: "octocat:fix-tabs", base: "main", body: "Fixes #3" },
      201,
    );
    state.pr = pr.number;
    await check(
      me,
      "POST /repos/{owner}/{repo}/pulls",
      { ...upstream, title: "again", head: "octocat:fix-tabs", base: "main" },
      422,
    );
    await check(me, "GET /repos/{owner}/{repo}/pulls", { ...upstream, state: "all" }, 200);
    await check(me, "GET /repos/{owner}/{repo}/pulls/{pull_number}", { ...upstream, pull_number: state.pr }, 200);
    await check(me, "GET /repos/{owner}/{repo}/pulls/{pull_number}", { ...upstream, pull_number: 1 }, 404);
    await check(me, "GET /repos/{owner}/{repo}/issues/{issue_number}", { ...upstream, issue_number: state.pr }, 200);
    await check(
      me,
      "PATCH /repos/{owner}/{repo}/pulls/{pull_number}",
      { ...upstream, pull_number: state.pr, title: "Match trailing tabs as well as spaces" },
      200,
    );
    const reviewer = t.octokit("hubot", ["public_repo"]);
    const at = { ...upstream, pull_number: state.pr };
    const head = (pr as { head: { sha: string } }).head.sha;
    const comment = await check(
      reviewer,
      "POST /repos/{owner}/{repo}/pulls/{pull_number}/comments",
      { ...at, body: "Tabs too?", path: "README.md", line: 1, commit_id: head },
      201,
    );
    // Addressing the review: a reply on the thread, then the body's evidence section rewritten.
    const reply = await check(
      me,
      "POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies",
      { ...at, comment_id: comment.id, body: "Addressed in abc1234" },
      201,
    );
    expect(reply).toMatchObject({ in_reply_to_id: comment.id, path: "README.md", user: { login: "octocat" } });
    await check(
      me,
      "POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies",
      { ...at, comment_id: 987654321, body: "Nobody here" },
      404,
    );
    const patched = await check(
      me,
      "PATCH /repos/{owner}/{repo}/pulls/{pull_number}",
      { ...at, body: "## Validation\n\n- Revision 2 pushed" },
      200,
    );
    expect(patched.body).toBe("## Validation\n\n- Revision 2 pushed");
    await check(reviewer, "POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews", { ...at, event: "APPROVE" }, 200);
    await check(
      reviewer,
      "POST /repos/{owner}/{repo}/check-runs",
      { ...upstream, name: "ci", head_sha: head, status: "completed", conclusion: "success" },
      201,
    );
    await check(me, "GET /repos/{owner}/{repo}/pulls/{pull_number}/comments", at, 200);
    await check(me, "GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews", at, 200);
    await check(me, "GET /repos/{owner}/{repo}/commits/{ref}/check-runs", { ...upstream, ref: head }, 200);
    // A GitHub Actions job: its check run names the app and the job, and its log answers 302 to a
    // short-lived URL on the log host that needs no Authorization.
    const log = "Run npm test\nFAIL test/trailing.test.js\n##[error]Process completed with exit code 1.";
    const jobId = t.sandbox.control.finishActionsJob(upstream.owner, upstream.repo, {
      name: "test (20.x)",
      headSha: head,
      conclusion: "failure",
      log,
    });
    const run = await check(
      me,
      "GET /repos/{owner}/{repo}/check-runs/{check_run_id}",
      { ...upstream, check_run_id: jobId },
      200,
    );
    expect(run.app.slug).toBe("github-actions");
    expect(run.details_url).toMatch(new RegExp(`/actions/runs/\\d+/job/${jobId}$`));
    // An unknown check run: 404 (GitHub does not describe it in the schema).
    await expect(
      me.request("GET /repos/{owner}/{repo}/check-runs/{check_run_id}", { ...upstream, check_run_id: 987654321 }),
    ).rejects.toMatchObject({ status: 404 });
    const manual = { request: { redirect: "manual" as const } };
    await check(
      me,
      "GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs",
      { ...upstream, job_id: jobId, ...manual },
      302,
    );
    const { headers } = await me.request("GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs", {
      ...upstream,
      job_id: jobId,
      ...manual,
    });
    const got = await fetch(String(headers.location));
    expect([got.status, await got.text()]).toEqual([200, log]);
    const forged = new URL(String(headers.location));
    forged.searchParams.set("sig", "0".repeat(40));
    expect((await fetch(forged)).status).toBe(403);
    // A check run no Actions job made has no job log (404, not described in the schema).
    await expect(
      me.request("GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs", { ...upstream, job_id: 987654321, ...manual }),
    ).rejects.toMatchObject({ status: 404 });
    await check(
      t.octokit("hubot", ["public_repo"]),
      "PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge",
      { ...upstream, pull_number: state.pr },
      200,
    );
    await check(me, "GET /repos/{owner}/{repo}/pulls/{pull_number}", { ...upstream, pull_number: state.pr }, 200);
    await check(me, "POST /repos/{owner}/{repo}/merge-upstream", { ...fork, branch: "main" }, 200);
  });

  it("a repository's past: merged pull requests that closed issues, and the files each changed", async () => {
    const past = { owner: "octocat", repo: "url-shortener" };
    const closed = await check(me, "GET /repos/{owner}/{repo}/pulls", { ...past, state: "closed" }, 200);
    const merged = closed.filter((p: { merged_at: string | null }) => p.merged_at);
    expect(merged.map((p: { number: number }) => p.number)).toEqual([10, 9, 7]);
    const files = await check(
      me,
      "GET /repos/{owner}/{repo}/pulls/{pull_number}/files",
      { ...past, pull_number: 7 },
      200,
    );
    expect(files.map((f: { filename: string; status: string }) => `${f.status} ${f.filename}`)).toEqual([
      "modified shortener/handler.go",
      "modified shortener/store.go",
      "modified shortener/store_test.go",
    ]);
  });

  it("contribution checks: timeline cross-references, contribution files and draft pull requests", async () => {
    const kit = { owner: "opencommons", repo: "welcome-kit" };
    const events = await check(
      me,
      "GET /repos/{owner}/{repo}/issues/{issue_number}/timeline",
      { ...kit, issue_number: 5 },
      200,
    );
    expect(events).toEqual([
      expect.objectContaining({
        event: "cross-referenced",
        source: expect.objectContaining({
          type: "issue",
          issue: expect.objectContaining({ number: 6, state: "open" }),
        }),
      }),
    ]);
    await check(me, "GET /repos/{owner}/{repo}/issues/{issue_number}/timeline", { ...kit, issue_number: 1 }, 200);
    await check(me, "GET /repos/{owner}/{repo}/issues/{issue_number}/timeline", { ...kit, issue_number: 99 }, 404);
    await check(
      me,
      "GET /repos/{owner}/{repo}/contents/{path}",
      { owner: "opencommons", repo: "no-robots", path: "AI_POLICY.md" },
      200,
    );
    await check(
      me,
      "GET /repos/{owner}/{repo}/contents/{path}",
      { ...kit, path: ".github/PULL_REQUEST_TEMPLATE.md" },
      200,
    );
    /** A branch `draft-check` one commit ahead of main, to open a pull request from. */
    const draftBranch = (r: { owner: string; repo: string }) =>
      pushBranch(me, r, "draft-check", { "DRAFT.md": "draft\n" }, "Draft");
    await draftBranch(o);
    const draft = await check(
      me,
      "POST /repos/{owner}/{repo}/pulls",
      { ...o, title: "Draft follow-up", head: "draft-check", base: "main", body: "Draft", draft: true },
      201,
    );
    expect(draft.draft).toBe(true);
    const got = await check(
      me,
      "GET /repos/{owner}/{repo}/pulls/{pull_number}",
      { ...o, pull_number: draft.number },
      200,
    );
    expect(got.draft).toBe(true);

    // A private repository of an account on GitHub Free has no drafts; on a plan with them it has.
    const secret = { owner: "octocat", repo: "secret-notes" };
    await draftBranch(secret);
    const draftOf = { ...secret, title: "Draft note", head: "draft-check", base: "main", draft: true };
    const refused = await check(me, "POST /repos/{owner}/{repo}/pulls", draftOf, 422);
    expect(refused).toMatchObject({
      message: "Draft pull requests are not supported in this repository.",
      documentation_url: "https://docs.github.com/rest/pulls/pulls#create-a-pull-request",
    });
    expect(t.sandbox.control.listPulls("octocat", "secret-notes")).toEqual([]);
    t.sandbox.control.setPlan("octocat", "team");
    try {
      const opened = await check(me, "POST /repos/{owner}/{repo}/pulls", draftOf, 201);
      expect(opened.draft).toBe(true);
    } finally {
      t.sandbox.control.setPlan("octocat", "free");
    }
  });
});
