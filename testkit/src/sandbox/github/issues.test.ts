import { RequestError } from "@octokit/request-error";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../../test/github-sandbox";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.stop());

const rels = (link: string | undefined) =>
  Object.fromEntries([...(link ?? "").matchAll(/<([^>]+)>; rel="(\w+)"/g)].map((m) => [m[2], m[1]]));

describe("issues", () => {
  it("lists open issues by default, newest first, with label objects and no pull_request key", async () => {
    const gh = t.octokit("octocat", ["public_repo"]);
    const { data, headers } = await gh.rest.issues.listForRepo({ owner: "octocat", repo: "todo-api" });
    expect(data.map((i) => i.number)).toEqual([6, 5, 4, 3]);
    const pagination = data.find((i) => i.number === 3);
    expect(pagination?.labels).toEqual([
      expect.objectContaining({ name: "bug", color: "d73a4a", default: true }),
      expect.objectContaining({ name: "good first issue" }),
    ]);
    expect(pagination).toMatchObject({
      state: "open",
      locked: false,
      assignees: [],
      html_url: "https://github.com/octocat/todo-api/issues/3",
    });
    expect(pagination?.pull_request).toBeUndefined();
    expect(headers["content-type"]).toBe("application/json; charset=utf-8");
    for (const h of [
      "x-ratelimit-limit",
      "x-ratelimit-remaining",
      "x-ratelimit-reset",
      "x-ratelimit-used",
      "x-ratelimit-resource",
      "x-github-request-id",
    ]) {
      expect(headers[h], h).toBeDefined();
    }
  });

  it("filters by state=closed and state=all", async () => {
    const gh = t.octokit("hubot", []);
    const closed = await gh.rest.issues.listForRepo({ owner: "octocat", repo: "todo-api", state: "closed" });
    // As on GitHub, the list holds pull requests too: the merged fixes of #1 and #2 (#8, #9).
    expect(closed.data.map((i) => [i.number, i.state_reason, !!i.pull_request])).toEqual([
      [7, "not_planned", false],
      [9, null, true],
      [2, "completed", false],
      [8, null, true],
      [1, "completed", false],
    ]);
    const all = await gh.rest.issues.listForRepo({ owner: "octocat", repo: "todo-api", state: "all" });
    expect(all.data).toHaveLength(9);
  });

  it("pages past 100 issues with Link rel next/last/first/prev that the client can follow", async () => {
    const numbers = t.sandbox.control.addIssues(
      "octocat",
      "weather-cli",
      Array.from({ length: 150 }, (_, i) => ({ title: `Generated issue ${i + 1}`, labels: ["bug"] })),
    );
    expect(numbers).toHaveLength(150);
    const gh = t.octokit("octocat", ["repo"]);
    const first = await gh.rest.issues.listForRepo({
      owner: "octocat",
      repo: "weather-cli",
      state: "all",
      per_page: 100,
    });
    expect(first.data).toHaveLength(100);
    const links = rels(first.headers.link);
    expect(Object.keys(links).sort()).toEqual(["last", "next"]);
    expect(links.next).toMatch(/\/repositories\/\d+\/issues\?.*page=2/);

    const second = await gh.request(`GET ${links.next}`);
    expect(second.data).toHaveLength(155 - 100);
    expect(Object.keys(rels(second.headers.link)).sort()).toEqual(["first", "prev"]);

    const everything = await gh.paginate(gh.rest.issues.listForRepo, {
      owner: "octocat",
      repo: "weather-cli",
      state: "all",
      per_page: 100,
    });
    expect(new Set(everything.map((i) => i.number)).size).toBe(155);
    const capped = await gh.rest.issues.listForRepo({
      owner: "octocat",
      repo: "weather-cli",
      state: "all",
      per_page: 500,
    });
    expect(capped.data).toHaveLength(100);
  });

  it("answers 304 to a conditional request with a matching ETag without spending rate limit", async () => {
    const gh = t.octokit("octocat", ["public_repo"]);
    const first = await gh.rest.issues.listForRepo({ owner: "octocat", repo: "url-shortener" });
    const etag = first.headers.etag ?? "";
    expect(etag).toMatch(/^W\/".+"$/);
    const remaining = Number(first.headers["x-ratelimit-remaining"]);

    const error = await gh.rest.issues
      .listForRepo({ owner: "octocat", repo: "url-shortener", headers: { "if-none-match": etag } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestError);
    expect((error as RequestError).status).toBe(304);
    expect(Number((error as RequestError).response?.headers["x-ratelimit-remaining"])).toBe(remaining);
    expect(
      t.sandbox.control.requestLog.filter(
        (r) => r.status === 304 && r.path.startsWith("/repos/octocat/url-shortener/issues"),
      ),
    ).toHaveLength(1);

    t.sandbox.control.setIssueState("octocat", "url-shortener", 2, "closed");
    const changed = await gh.rest.issues.listForRepo({
      owner: "octocat",
      repo: "url-shortener",
      headers: { "if-none-match": etag },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.data.map((i) => i.number)).not.toContain(2);
  });

  it("gets one issue by number; an unknown number is a 404", async () => {
    const gh = t.octokit("octocat", ["public_repo"]);
    const { data } = await gh.rest.issues.get({ owner: "hubot", repo: "markdown-lint", issue_number: 3 });
    expect(data).toMatchObject({
      number: 3,
      title: "trailing-spaces ignores trailing tabs",
      user: { login: "monalisa" },
      author_association: "NONE",
    });
    await expect(
      gh.rest.issues.get({ owner: "hubot", repo: "markdown-lint", issue_number: 999 }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("rejects an invalid state with GitHub's validation error shape", async () => {
    const gh = t.octokit("octocat", []);
    const error = (await gh
      .request("GET /repos/{owner}/{repo}/issues?state=nope", { owner: "octocat", repo: "todo-api" })
      .catch((e: unknown) => e)) as RequestError;
    expect(error.status).toBe(422);
    expect(error.response?.data).toMatchObject({
      message: "Validation Failed",
      errors: [{ resource: "Issue", field: "state", code: "invalid" }],
      documentation_url: expect.any(String),
    });
  });
});
