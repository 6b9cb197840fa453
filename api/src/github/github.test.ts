import { describe, expect, it } from "vitest";
import { issues, repositories } from "@fixloop/db";
import { json, type RepoItem } from "../../test/github.testkit";
import { createTestStack } from "../../test/stack";

const stack = await createTestStack({ workers: ["sync"] });
const { app, db } = stack;

/** Issues (not pull requests) GitHub itself reports for a repository. */
async function githubIssueCount(fullName: string): Promise<number> {
  const token = stack.github.control.issueToken("octocat", ["repo"]);
  let n = 0;
  for (let page = 1; ; page++) {
    const res = await fetch(`${stack.github.url}/repos/${fullName}/issues?state=all&per_page=100&page=${page}`, {
      headers: { authorization: `token ${token}` },
    });
    const items = (await res.json()) as Array<{ pull_request?: unknown }>;
    n += items.filter((i) => !i.pull_request).length;
    if (items.length < 100) return n;
  }
}

describe("repositories", () => {
  it("lists octocat's repositories and asks for authorization until public_repo is granted", async () => {
    const { headers } = await stack.signIn("octocat");
    const before = await app.request("/api/github/repositories", { headers });
    expect(before.status).toBe(200);
    const b = await json<{ repositories: RepoItem[]; requiresAuthorization: boolean }>(before);
    expect(b.requiresAuthorization).toBe(true);
    expect(b.repositories.length).toBeGreaterThan(0);
    expect(b.repositories.every((r) => !r.isPrivate)).toBe(true);
    expect(b.repositories[0]).toEqual(
      expect.objectContaining({
        _id: expect.any(String),
        name: expect.any(String),
        fullName: expect.stringMatching(/^\w[\w-]*\/[\w.-]+$/),
        htmlUrl: expect.any(String),
        defaultBranch: expect.any(String),
      }),
    );

    await stack.authorizeRepos(headers, "octocat", { private: true });
    const after = await json<{ repositories: RepoItem[]; requiresAuthorization: boolean }>(
      await app.request("/api/github/repositories", { headers }),
    );
    expect(after.requiresAuthorization).toBe(false);
    expect(after.repositories.some((r) => r.isPrivate)).toBe(true);
    expect(after.repositories.filter((r) => r.fullName.startsWith("octocat/")).every((r) => r.canPush)).toBe(true);
    // Listing twice leaves one row per repository.
    const rows = await repositories.selectWithGithub(db).execute();
    expect(new Set(rows.map((r) => r.full_name)).size).toBe(rows.length);
  });

  it("answers 401 without a session", async () => {
    expect((await app.request("/api/github/repositories")).status).toBe(401);
  });
});

describe("issue sync", () => {
  it("fetches every issue, skips pull requests, keeps labels and state, and is idempotent", async () => {
    const { headers, user } = await stack.signIn("octocat", { scopes: ["public_repo"] });
    const repos = await json<{ repositories: RepoItem[] }>(await app.request("/api/github/repositories", { headers }));
    const repo = repos.repositories.find((r) => r.fullName.startsWith("octocat/") && !r.isPrivate);
    if (!repo) throw new Error("no public octocat repository seeded");
    const [n1] = stack.github.control.addIssues("octocat", repo.name, [
      { title: "Labelled bug", labels: ["bug"], state: "closed" },
    ]);

    const first = await app.request(`/api/github/repositories/${repo.fullName}/issues`, { headers });
    expect(first.status).toBe(200);
    const expected = await githubIssueCount(repo.fullName);
    expect(await json<{ count: number }>(first)).toEqual({ count: expected });
    const second = await json<{ count: number }>(
      await app.request(`/api/github/repositories/${repo.fullName}/issues`, { headers }),
    );
    expect(second.count).toBe(expected);

    const rows = await issues
      .selectIssues(db)
      .where("issues.user_id", "=", user._id)
      .where("issue_repo.full_name", "=", repo.fullName)
      .execute();
    expect(rows).toHaveLength(expected);
    const labelled = rows.find((r) => r.issue_number === n1);
    expect(labelled).toMatchObject({ labels: ["bug"], state: "closed", status: "closed" });
    expect(labelled?.html_url).toMatch(new RegExp(`/${repo.fullName}/issues/${n1}$`));
  });

  it("the second sync of an unchanged repository is a conditional request answered 304", async () => {
    const { headers } = await stack.signIn("octocat", { scopes: ["public_repo"] });
    const repos = await json<{ repositories: RepoItem[] }>(await app.request("/api/github/repositories", { headers }));
    const repo = repos.repositories.find((r) => r.fullName.startsWith("octocat/") && !r.isPrivate);
    if (!repo) throw new Error("no public octocat repository seeded");
    await app.request(`/api/github/repositories/${repo.fullName}/sync`, { method: "POST", headers });
    const stored = await repositories
      .selectWithGithub(db)
      .where("g.full_name", "=", repo.fullName)
      .executeTakeFirstOrThrow();
    expect(stored.issues_etag).toBeTruthy();
    stack.github.control.clearRequestLog();
    const res = await app.request(`/api/github/repositories/${repo.fullName}/sync`, { method: "POST", headers });
    expect(res.status).toBe(200);
    expect(await json<{ success: boolean; count: number }>(res)).toMatchObject({ success: true });
    const issueCalls = stack.github.control.requestLog.filter((r) => r.path.includes("/issues"));
    expect(issueCalls.map((r) => r.status)).toEqual([304]);
  });

  it("follows pagination past 100 issues without duplicates", async () => {
    const { headers, user } = await stack.signIn("octocat", { scopes: ["public_repo"] });
    const repos = await json<{ repositories: RepoItem[] }>(await app.request("/api/github/repositories", { headers }));
    const repo = repos.repositories.filter((r) => r.fullName.startsWith("octocat/") && !r.isPrivate).at(-1);
    if (!repo) throw new Error("no public octocat repository seeded");
    stack.github.control.addIssues(
      "octocat",
      repo.name,
      Array.from({ length: 230 }, (_, i) => ({ title: `Bulk issue ${i}` })),
    );
    stack.github.control.clearRequestLog();
    const res = await json<{ count: number }>(
      await app.request(`/api/github/repositories/${repo.fullName}/issues`, { headers }),
    );
    const expected = await githubIssueCount(repo.fullName);
    expect(expected).toBeGreaterThan(230);
    expect(res.count).toBe(expected);
    const pages = stack.github.control.requestLog.filter((r) => r.path.includes("/issues") && r.status === 200);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    const numbers = await issues
      .selectIssues(db)
      .where("issues.user_id", "=", user._id)
      .where("issue_repo.full_name", "=", repo.fullName)
      .execute();
    expect(new Set(numbers.map((n) => n.issue_number)).size).toBe(expected);
  });

  it("reads every page after 100 newer issues push the last read first page down to page 2", async () => {
    const { headers } = await stack.signIn("octocat", { scopes: ["public_repo"] });
    const repos = await json<{ repositories: RepoItem[] }>(await app.request("/api/github/repositories", { headers }));
    const repo = repos.repositories.filter((r) => r.fullName.startsWith("octocat/") && !r.isPrivate).at(-1);
    if (!repo) throw new Error("no public octocat repository seeded");
    const issuesOf = (from: number) => Array.from({ length: 100 }, (_, i) => ({ title: `Pushed down ${from + i}` }));
    stack.github.control.addIssues("octocat", repo.name, issuesOf(0));
    const sync = async () => {
      const res = await app.request(`/api/github/repositories/${repo.fullName}/issues`, { headers });
      expect(res.status).toBe(200);
      return (await json<{ count: number }>(res)).count;
    };
    expect(await sync()).toBe(await githubIssueCount(repo.fullName));
    // Page 2 is now exactly the first page of the last read: its ETag is the stored one.
    stack.github.control.addIssues("octocat", repo.name, issuesOf(100));
    stack.github.control.clearRequestLog();
    expect(await sync()).toBe(await githubIssueCount(repo.fullName));
    const pages = stack.github.control.requestLog.filter((r) => /\/issues\?/.test(r.path));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.filter((r) => r.status !== 200)).toEqual([]);
  });

  it("answers 404 for a repository GitHub does not show the user, and 400 for a malformed name", async () => {
    const { headers } = await stack.signIn("hubot");
    const res = await app.request("/api/github/repositories/octocat/no-such-repo/issues", { headers });
    expect(res.status).toBe(404);
    expect((await json<{ error: { code: string } }>(res)).error.code).toBe("github.not_found");
    const bad = await app.request("/api/github/repositories/-bad-/x/issues", { headers });
    expect(bad.status).toBe(400);
  });

  it("refuses to sync or list the issues of a repository that is not the user's, and stores nothing", async () => {
    const { headers, user } = await stack.signIn("hubot", { scopes: ["public_repo"] });
    for (const res of [
      await app.request("/api/github/repositories/octocat/todo-api/issues", { headers }),
      await app.request("/api/github/repositories/octocat/todo-api/sync", { method: "POST", headers }),
    ]) {
      expect(res.status).toBe(403);
      expect((await json<{ error: { code: string } }>(res)).error.code).toBe("github.not_your_repository");
    }
    expect(
      await issues
        .selectIssues(db)
        .where("issues.user_id", "=", user._id)
        .where("issue_repo.full_name", "=", "octocat/todo-api")
        .execute(),
    ).toEqual([]);
    expect(
      await repositories
        .selectWithGithub(db)
        .where("repositories.user_id", "=", user._id)
        .where("g.full_name", "=", "octocat/todo-api")
        .execute(),
    ).toEqual([]);
  });

  it("checks the origin of the issue-importing GET like a write", async () => {
    const { headers } = await stack.signIn("octocat", { scopes: ["public_repo"] });
    const cookie = headers.cookie;
    stack.github.control.clearRequestLog();
    const foreign: Record<string, string>[] = [
      { cookie, origin: "https://evil.example" },
      { cookie, origin: "null" },
      { cookie, referer: "https://evil.example/x" },
      { cookie, "sec-fetch-site": "cross-site" },
    ];
    for (const h of foreign) {
      const res = await app.request("/api/github/repositories/octocat/todo-api/issues", { headers: h });
      expect(res.status).toBe(403);
      expect((await json<{ error: { code: string } }>(res)).error.code).toBe("request.cross_origin");
    }
    expect(stack.github.control.requestLog).toEqual([]);
    const sameSite = await app.request("/api/github/repositories/octocat/todo-api/issues", {
      headers: { cookie, "sec-fetch-site": "same-origin" },
    });
    expect(sameSite.status).toBe(200);
  });

  it("waits out a secondary rate limit (retry-after) and succeeds", async () => {
    const { headers } = await stack.signIn("octocat", { scopes: ["public_repo"] });
    const repos = await json<{ repositories: RepoItem[] }>(await app.request("/api/github/repositories", { headers }));
    const repo = repos.repositories.find((r) => r.fullName.startsWith("octocat/") && !r.isPrivate);
    if (!repo) throw new Error("no public octocat repository seeded");
    stack.github.control.failNext({ path: /\/issues$/, status: 403, kind: "secondary", retryAfter: 1 });
    const started = Date.now();
    const res = await app.request(`/api/github/repositories/${repo.fullName}/issues`, { headers });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it("surfaces an exhausted primary rate limit as a clear 429", async () => {
    const { headers } = await stack.signIn("octocat", { scopes: ["public_repo"] });
    stack.github.control.failNext({ path: /\/repos\/octocat\/[^/]+$/, status: 403, kind: "primary", retryAfter: 3600 });
    const res = await app.request("/api/github/repositories/octocat/anything/issues", { headers });
    expect(res.status).toBe(429);
    const body = await json<{ error: { code: string; message: string } }>(res);
    expect(body.error.code).toBe("github.rate_limited");
    expect(body.error.message).toMatch(/rate limit/i);
  });
});
