import { describe, expect, it } from "vitest";
import { createTestApp, errorOf } from "../../test/testing";

const { app, loginAs } = await createTestApp();
const { headers } = await loginAs();

const parse = async (url: unknown) => {
  const res = await app.request("/api/contributions/parse-url", {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: JSON.stringify({ url }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { parsed?: unknown; error?: { code: string; message: string } },
  };
};

const issue = (owner: string, repo: string, issueNumber: number) => ({ type: "issue", owner, repo, issueNumber });
const repository = (owner: string, repo: string) => ({ type: "repository", owner, repo, issueNumber: null });

describe("POST /api/contributions/parse-url", () => {
  it.each([
    ["https://github.com/facebook/react/issues/123", issue("facebook", "react", 123)],
    ["http://github.com/facebook/react/issues/123", issue("facebook", "react", 123)],
    ["github.com/facebook/react/issues/123", issue("facebook", "react", 123)],
    ["www.github.com/facebook/react/issues/7", issue("facebook", "react", 7)],
    ["https://github.com/facebook/react/issues/123/", issue("facebook", "react", 123)],
    ["https://github.com/facebook/react/issues/123#issuecomment-99", issue("facebook", "react", 123)],
    ["https://github.com/facebook/react/issues/123?q=1", issue("facebook", "react", 123)],
    ["  https://github.com/hubot/markdown-lint/issues/2  ", issue("hubot", "markdown-lint", 2)],
    ["https://github.com/my-org/repo.js/issues/45", issue("my-org", "repo.js", 45)],
    ["facebook/react#123", issue("facebook", "react", 123)],
    ["a/b_c.d#1", issue("a", "b_c.d", 1)],
  ])("parses the issue reference %s", async (url, parsed) => {
    expect(await parse(url)).toEqual({ status: 200, body: { parsed } });
  });

  it.each([
    ["https://github.com/facebook/react", repository("facebook", "react")],
    ["github.com/facebook/react/", repository("facebook", "react")],
    ["https://github.com/facebook/react/pulls", repository("facebook", "react")],
    ["https://github.com/facebook/react.git", repository("facebook", "react")],
  ])("reports the repository URL %s as type repository", async (url, parsed) => {
    expect(await parse(url)).toEqual({ status: 200, body: { parsed } });
  });

  it.each([
    "https://gitlab.com/facebook/react/issues/123",
    "https://github.com.evil.example/facebook/react/issues/1",
    "https://evil.example/github.com/facebook/react/issues/1",
    "https://github.com/facebook/react/issues/abc",
    "https://github.com/facebook/react/issues/0",
    "https://github.com/facebook/react/issues/-3",
    "https://github.com/facebook",
    "ftp://github.com/facebook/react/issues/1",
    "facebook/react#",
    "react#12",
    "not a url at all",
    "javascript:alert(1)",
    "https://github.com/-bad/react/issues/1",
    "https://github.com/../../etc/passwd/issues/1",
  ])("rejects %s with a clear 400", async (url) => {
    const res = await parse(url);
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe("contributions.invalid_url");
    expect(res.body.error?.message).toMatch(/github\.com\/owner\/repo\/issues/);
  });

  it("asks for a URL when the input is blank, and rejects a non-string", async () => {
    expect(await parse("   ")).toMatchObject({
      status: 400,
      body: { error: { code: "contributions.url_required", message: "Please enter a GitHub issue URL" } },
    });
    expect((await parse(42)).status).toBe(400);
  });

  it("needs a signed-in user", async () => {
    const res = await app.request("/api/contributions/parse-url", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: "a/b#1" }),
    });
    expect(res.status).toBe(401);
  });
});

describe("issue references in fetch-issue and import-issue", () => {
  it.each([true, [2], "1e3", "0x10", " 7", 0, -1, 1.5, null, "", {}])(
    "refuses issueNumber %j with 400",
    async (issueNumber) => {
      for (const path of ["/api/contributions/fetch-issue", "/api/contributions/import-issue"]) {
        const res = await app.request(path, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify({ owner: "hubot", repo: "markdown-lint", issueNumber }),
        });
        expect(res.status, path).toBe(400);
        expect((await errorOf(res)).code).toBe("request.invalid");
      }
    },
  );
});
