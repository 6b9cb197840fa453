import type { Octokit } from "@octokit/rest";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestSandbox } from "../../../test/github-sandbox";
import { openapiContract, repos } from "../../../test/openapi-contract";

const { check, started } = openapiContract("redirects");
const { o } = repos;
let t: TestSandbox;
let me: Octokit;
beforeAll(() => void ({ t, me } = started()));

describe("responses match GitHub's OpenAPI description", () => {
  it("a renamed or transferred repository: its old names answer 301 to /repositories/{id} for every method, until taken again", async () => {
    const old = { owner: "octocat", repo: "weather-cli" };
    const { id } = await check(me, "GET /repos/{owner}/{repo}", old, 200);
    const [n = 0] = t.sandbox.control.addIssues("octocat", "weather-cli", [{ title: "Moves with its repository" }]);
    await t.sandbox.control.renameRepository("octocat", "weather-cli", "weather");
    const at = `${t.sandbox.url}/repositories/${id}`;
    const moved = (url: string) => ({
      message: "Moved Permanently",
      url,
      documentation_url: "https://docs.github.com/rest/guides/best-practices-for-using-the-rest-api#follow-redirects",
    });
    const manual = { request: { redirect: "manual" } };
    expect(await check(me, "GET /repos/{owner}/{repo}", { ...old, ...manual }, 301)).toEqual(moved(at));
    // The same sub-path and query, under the repository's id.
    const listed = await check(me, "GET /repos/{owner}/{repo}/issues", { ...old, state: "all", ...manual }, 301);
    expect(listed).toEqual(moved(`${at}/issues?state=all`));
    const one = { ...old, issue_number: n };
    expect(await check(me, "GET /repos/{owner}/{repo}/issues/{issue_number}", { ...one, ...manual }, 301)).toEqual(
      moved(`${at}/issues/${n}`),
    );
    // Followed, as clients do for GET.
    const followed = await check(me, "GET /repos/{owner}/{repo}", old, 200);
    expect([followed.id, followed.full_name]).toEqual([id, "octocat/weather"]);
    const issue = await check(me, "GET /repos/{owner}/{repo}/issues/{issue_number}", one, 200);
    expect([issue.title, issue.repository_url]).toEqual([
      "Moves with its repository",
      `${t.sandbox.url}/repos/octocat/weather`,
    ]);

    // /repositories/{id}/… serves what /repos/{owner}/{repo}/… does.
    const byId = { repository_id: id };
    const repo = await check(me, "GET /repositories/{repository_id}", byId, 200, "GET /repos/{owner}/{repo}");
    expect(repo.full_name).toBe("octocat/weather");
    const issues = await check(
      me,
      "GET /repositories/{repository_id}/issues",
      { ...byId, state: "all" },
      200,
      "GET /repos/{owner}/{repo}/issues",
    );
    expect(issues.map((i: { number: number }) => i.number)).toContain(n);
    await check(
      me,
      "GET /repositories/{repository_id}/issues/{issue_number}",
      { ...byId, issue_number: n },
      200,
      "GET /repos/{owner}/{repo}/issues/{issue_number}",
    );
    await check(me, "GET /repositories/{repository_id}/branches", byId, 200, "GET /repos/{owner}/{repo}/branches");
    await check(
      me,
      "GET /repositories/{repository_id}/contents/{path}",
      { ...byId, path: "README.md" },
      200,
      "GET /repos/{owner}/{repo}/contents/{path}",
    );

    // A transfer redirects both former names; a write to one is answered 301 (not followed by
    // clients as a write), and changes nothing.
    await t.sandbox.control.transferRepository("octocat", "weather", "monalisa");
    const transferred = await check(me, "GET /repos/{owner}/{repo}", old, 200);
    expect([transferred.id, transferred.full_name]).toEqual([id, "monalisa/weather"]);
    expect(await check(me, "GET /repos/{owner}/{repo}", { owner: "octocat", repo: "weather", ...manual }, 301)).toEqual(
      moved(at),
    );
    const token = t.sandbox.control.issueToken("octocat", ["repo"]);
    for (const [method, path] of [
      ["POST", "/repos/octocat/weather/issues"],
      ["PATCH", `/repos/octocat/weather-cli/issues/${n}`],
      ["DELETE", "/repos/octocat/weather-cli"],
    ] as const) {
      const res = await fetch(`${t.sandbox.url}${path}?page=2`, {
        method,
        redirect: "manual",
        headers: { authorization: `token ${token}`, "content-type": "application/json" },
        body: method === "DELETE" ? undefined : JSON.stringify({ title: "Written to the old name" }),
      });
      const location = `${at}${path.replace(/^\/repos\/[^/]+\/[^/]+/, "")}?page=2`;
      expect([method, res.status, res.headers.get("location"), await res.json()]).toEqual([
        method,
        301,
        location,
        moved(location),
      ]);
    }
    const after = await check(
      me,
      "GET /repos/{owner}/{repo}/issues",
      { owner: "monalisa", repo: "weather", state: "all" },
      200,
    );
    expect(after.map((i: { title: string }) => i.title)).not.toContain("Written to the old name");
    expect(after.find((i: { number: number }) => i.number === n)?.title).toBe("Moves with its repository");

    // A private repository's former name redirects only those who may read it.
    await t.sandbox.control.renameRepository("octocat", "secret-notes", "private-notes");
    const secret = { owner: "octocat", repo: "secret-notes", ...manual };
    await check(t.octokit("hubot", ["repo"]), "GET /repos/{owner}/{repo}", secret, 404);
    await check(me, "GET /repos/{owner}/{repo}", secret, 301);

    // A name taken by a new repository serves that repository, not the redirect.
    const monalisa = t.octokit("monalisa", ["public_repo"]);
    const first = await check(monalisa, "POST /repos/{owner}/{repo}/forks", o, 202);
    await t.sandbox.control.renameRepository("monalisa", first.name, "todo-fork");
    const reused = { owner: "monalisa", repo: first.name };
    expect(await check(monalisa, "GET /repos/{owner}/{repo}", { ...reused, ...manual }, 301)).toEqual(
      moved(`${t.sandbox.url}/repositories/${first.id}`),
    );
    const second = await check(
      monalisa,
      "POST /repos/{owner}/{repo}/forks",
      { owner: "octocat", repo: "url-shortener", name: first.name },
      202,
    );
    expect(second.full_name).toBe(`monalisa/${first.name}`);
    const now = await check(monalisa, "GET /repos/{owner}/{repo}", { ...reused, ...manual }, 200);
    expect([now.id, now.parent.full_name]).toEqual([second.id, "octocat/url-shortener"]);
    const renamed = await check(monalisa, "GET /repos/{owner}/{repo}", { owner: "monalisa", repo: "todo-fork" }, 200);
    expect(renamed.id).toBe(first.id);
  });
});
