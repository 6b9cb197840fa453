import type { RequestError } from "@octokit/request-error";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEEDED_FIXES } from "./seed";
import { applyEdits, startTestSandbox, type TestSandbox } from "../../../test/github-sandbox";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.stop());

const fix = SEEDED_FIXES.find((f) => f.repo === "hubot/markdown-lint" && f.issueNumber === 2);
const BRANCH = "fixloop/issue-2";

describe("import flow: fork, branch and commit through the git data API, pull request to upstream", () => {
  let forkHead = "";
  let commitSha = "";

  it("forks into the token user's account, idempotently", async () => {
    const gh = t.octokit("octocat", ["public_repo"]);
    const first = await gh.rest.repos.createFork({ owner: "hubot", repo: "markdown-lint" });
    expect(first.status).toBe(202);
    expect(first.data).toMatchObject({
      full_name: "octocat/markdown-lint",
      fork: true,
      default_branch: "main",
      parent: { full_name: "hubot/markdown-lint" },
      source: { full_name: "hubot/markdown-lint" },
    });
    const again = await gh.rest.repos.createFork({ owner: "hubot", repo: "markdown-lint" });
    expect(again.data.id).toBe(first.data.id);

    const { data: repo } = await gh.rest.repos.get({ owner: "octocat", repo: "markdown-lint" });
    expect(repo.permissions).toMatchObject({ admin: true, push: true, pull: true });
    const { data: upstream } = await gh.rest.repos.get({ owner: "hubot", repo: "markdown-lint" });
    expect(upstream.permissions).toMatchObject({ admin: false, push: false, pull: true });
    expect(upstream.forks_count).toBe(1);
    expect(t.git("octocat", "markdown-lint", "rev-parse", "main")).toBe(
      t.git("hubot", "markdown-lint", "rev-parse", "main"),
    );
  });

  it("creates a branch with a commit whose tree holds the fixed content", async () => {
    if (!fix) throw new Error("seeded fix missing");
    const gh = t.octokit("octocat", ["public_repo"]);
    const { data: ref } = await gh.rest.git.getRef({ owner: "octocat", repo: "markdown-lint", ref: "heads/main" });
    forkHead = ref.object.sha;
    const { data: base } = await gh.rest.git.getCommit({
      owner: "octocat",
      repo: "markdown-lint",
      commit_sha: forkHead,
    });

    const entries = [];
    for (const [i, file] of fix.files.entries()) {
      const { data } = await gh.rest.repos.getContent({
        owner: "octocat",
        repo: "markdown-lint",
        path: file.filename,
        ref: forkHead,
      });
      if (Array.isArray(data) || data.type !== "file") throw new Error("expected a file");
      const next = applyEdits(Buffer.from(data.content, "base64").toString("utf8"), file.edits ?? []);
      if (i === 0) {
        const { data: blob } = await gh.rest.git.createBlob({
          owner: "octocat",
          repo: "markdown-lint",
          content: Buffer.from(next).toString("base64"),
          encoding: "base64",
        });
        entries.push({ path: file.filename, mode: "100644" as const, type: "blob" as const, sha: blob.sha });
      } else {
        entries.push({ path: file.filename, mode: "100644" as const, type: "blob" as const, content: next });
      }
    }
    const { data: tree } = await gh.rest.git.createTree({
      owner: "octocat",
      repo: "markdown-lint",
      base_tree: base.tree.sha,
      tree: entries,
    });
    const { data: commit } = await gh.rest.git.createCommit({
      owner: "octocat",
      repo: "markdown-lint",
      message: "Report heading jumps of more than one level\n\nFixes #2",
      tree: tree.sha,
      parents: [forkHead],
    });
    expect(commit).toMatchObject({
      parents: [{ sha: forkHead }],
      author: { name: "The Octocat", email: "octocat@github.com" },
    });
    commitSha = commit.sha;
    const { data: created } = await gh.rest.git.createRef({
      owner: "octocat",
      repo: "markdown-lint",
      ref: `refs/heads/${BRANCH}`,
      sha: commit.sha,
    });
    expect(created).toMatchObject({ ref: `refs/heads/${BRANCH}`, object: { sha: commit.sha, type: "commit" } });

    expect(t.git("octocat", "markdown-lint", "rev-parse", BRANCH)).toBe(commit.sha);
    const { data: fetched } = await gh.rest.git.getRef({
      owner: "octocat",
      repo: "markdown-lint",
      ref: `heads/${BRANCH}`,
    });
    expect(fetched.object.sha).toBe(commit.sha);
    expect(t.git("octocat", "markdown-lint", "show", `${BRANCH}:src/rules/heading-increment.js`)).toContain(
      "level > previous + 1",
    );
    expect(t.git("octocat", "markdown-lint", "show", `${BRANCH}:test/heading-increment.test.js`)).toContain(
      "reports a jump of two levels",
    );
    expect(t.git("octocat", "markdown-lint", "diff", "--name-only", forkHead, BRANCH).split("\n").sort()).toEqual([
      "src/rules/heading-increment.js",
      "test/heading-increment.test.js",
    ]);
    expect(t.git("hubot", "markdown-lint", "branch", "--list", BRANCH)).toBe("");
  });

  it("opens a pull request from fork_owner:branch to the upstream base", async () => {
    const gh = t.octokit("octocat", ["public_repo"]);
    const { status, data: pr } = await gh.rest.pulls.create({
      owner: "hubot",
      repo: "markdown-lint",
      title: "Report heading jumps of more than one level",
      head: `octocat:${BRANCH}`,
      base: "main",
      body: "Fixes #2",
    });
    expect(status).toBe(201);
    expect(pr).toMatchObject({
      number: 7,
      state: "open",
      merged: false,
      merged_at: null,
      html_url: "https://github.com/hubot/markdown-lint/pull/7",
      head: { ref: BRANCH, sha: commitSha, label: `octocat:${BRANCH}`, repo: { full_name: "octocat/markdown-lint" } },
      base: { ref: "main", sha: forkHead, repo: { full_name: "hubot/markdown-lint" } },
      user: { login: "octocat" },
      commits: 1,
      changed_files: 2,
      mergeable: true,
    });
    expect(t.git("hubot", "markdown-lint", "rev-parse", "refs/pull/7/head")).toBe(commitSha);

    const { data: asIssue } = await gh.rest.issues.get({ owner: "hubot", repo: "markdown-lint", issue_number: 7 });
    expect(asIssue.pull_request).toMatchObject({
      html_url: "https://github.com/hubot/markdown-lint/pull/7",
      merged_at: null,
    });
    const { data: listed } = await gh.rest.pulls.list({
      owner: "hubot",
      repo: "markdown-lint",
      head: `octocat:${BRANCH}`,
    });
    expect(listed.map((p) => p.number)).toEqual([7]);
    expect((await gh.rest.pulls.list({ owner: "hubot", repo: "markdown-lint", head: "octocat:other" })).data).toEqual(
      [],
    );
    expect(t.sandbox.control.listPulls("hubot", "markdown-lint")).toEqual([
      expect.objectContaining({
        number: 7,
        head: { owner: "octocat", repo: "markdown-lint", ref: BRANCH, sha: commitSha },
        merged: false,
      }),
    ]);
  });

  it("refuses a duplicate pull request with GitHub's 422", async () => {
    const gh = t.octokit("octocat", ["public_repo"]);
    const error = (await gh.rest.pulls
      .create({ owner: "hubot", repo: "markdown-lint", title: "again", head: `octocat:${BRANCH}`, base: "main" })
      .catch((e: unknown) => e)) as RequestError;
    expect(error.status).toBe(422);
    expect(error.response?.data).toMatchObject({
      message: "Validation Failed",
      errors: [
        { resource: "PullRequest", code: "custom", message: `A pull request already exists for octocat:${BRANCH}.` },
      ],
    });
    expect(error.message).toContain("A pull request already exists for");
  });

  it("rejects a head branch that does not exist and a head with no new commits", async () => {
    const gh = t.octokit("octocat", ["public_repo"]);
    const missing = (await gh.rest.pulls
      .create({ owner: "hubot", repo: "markdown-lint", title: "x", head: "octocat:nope", base: "main" })
      .catch((e: unknown) => e)) as RequestError;
    expect(missing.status).toBe(422);
    expect(missing.response?.data).toMatchObject({
      errors: [{ resource: "PullRequest", field: "head", code: "invalid" }],
    });
    const empty = (await gh.rest.pulls
      .create({ owner: "hubot", repo: "markdown-lint", title: "x", head: "octocat:main", base: "main" })
      .catch((e: unknown) => e)) as RequestError;
    expect(empty.status).toBe(422);
    expect(JSON.stringify(empty.response?.data)).toContain("No commits between main and octocat:main");
  });

  it("merges through the control, closes the issue it fixes, and the fork syncs with merge-upstream", async () => {
    const mergeSha = await t.sandbox.control.mergePull("hubot", "markdown-lint", 7);
    expect(t.git("hubot", "markdown-lint", "rev-parse", "main")).toBe(mergeSha);
    expect(t.git("hubot", "markdown-lint", "show", "main:src/rules/heading-increment.js")).toContain(
      "level > previous + 1",
    );
    const gh = t.octokit("octocat", ["public_repo"]);
    const { data: pr } = await gh.rest.pulls.get({ owner: "hubot", repo: "markdown-lint", pull_number: 7 });
    expect(pr).toMatchObject({
      state: "closed",
      merged: true,
      merge_commit_sha: mergeSha,
      merged_by: { login: "hubot" },
    });
    expect((await gh.rest.issues.get({ owner: "hubot", repo: "markdown-lint", issue_number: 2 })).data).toMatchObject({
      state: "closed",
      state_reason: "completed",
    });

    const { data: synced } = await gh.rest.repos.mergeUpstream({
      owner: "octocat",
      repo: "markdown-lint",
      branch: "main",
    });
    expect(synced).toEqual({
      message: "Successfully fetched and fast-forwarded from upstream hubot:main.",
      merge_type: "fast-forward",
      base_branch: "hubot:main",
    });
    expect(t.git("octocat", "markdown-lint", "rev-parse", "main")).toBe(mergeSha);
    const { data: again } = await gh.rest.repos.mergeUpstream({
      owner: "octocat",
      repo: "markdown-lint",
      branch: "main",
    });
    expect(again.merge_type).toBe("none");
  });

  it("keeps state and repositories across a restart on the same data directory, without reseeding", async () => {
    const token = t.sandbox.control.issueToken("octocat", ["repo"]);
    const before = t.git("hubot", "markdown-lint", "rev-parse", "main");
    await t.restart();
    const res = await fetch(`${t.sandbox.url}/repos/octocat/markdown-lint`, {
      headers: { authorization: `token ${token}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { parent: { full_name: string } }).parent.full_name).toBe("hubot/markdown-lint");
    expect(t.sandbox.control.listPulls("hubot", "markdown-lint")).toEqual([
      expect.objectContaining({ number: 7, merged: true }),
    ]);
    expect(t.git("hubot", "markdown-lint", "rev-parse", "main")).toBe(before);
  });
});
