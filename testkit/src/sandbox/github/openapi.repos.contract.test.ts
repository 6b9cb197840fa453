import { Octokit } from "@octokit/rest";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestSandbox } from "../../../test/github-sandbox";
import { openapiContract, repos, toJsonSchema, type Schema } from "../../../test/openapi-contract";

const { check, started } = openapiContract("repos");
const { o } = repos;
let t: TestSandbox;
let me: Octokit;
beforeAll(() => void ({ t, me } = started()));

describe("responses match GitHub's OpenAPI description", () => {
  it("users, repositories, issues and rate limit", async () => {
    await check(me, "GET /user", {}, 200);
    await check(me, "GET /user/emails", {}, 200);
    await check(me, "GET /user/repos", { per_page: 100 }, 200);
    await check(me, "GET /users/{username}", { username: "hubot" }, 200);
    await check(me, "GET /users/{username}/repos", { username: "hubot" }, 200);
    await check(me, "GET /rate_limit", {}, 200);
    await check(me, "GET /repos/{owner}/{repo}", o, 200);
    await check(me, "GET /repos/{owner}/{repo}", { owner: "octocat", repo: "missing" }, 404);
    await check(me, "GET /repos/{owner}/{repo}/labels", o, 200);
    const branches = await check(me, "GET /repos/{owner}/{repo}/branches", { ...o, per_page: 100 }, 200);
    expect(branches.map((b: { name: string }) => b.name)).toEqual(["main", "release-1.x"]);
    await check(me, "GET /repos/{owner}/{repo}/git/ref/{ref}", { ...o, ref: "heads/release-1.x" }, 200);
    await check(me, "GET /repos/{owner}/{repo}/branches", { owner: "octocat", repo: "missing" }, 404);
    await check(me, "GET /repos/{owner}/{repo}/issues", { ...o, state: "all" }, 200);
    await check(me, "GET /repos/{owner}/{repo}/issues/{issue_number}", { ...o, issue_number: 3 }, 200);
    await check(t.octokit("hubot", []), "GET /user/repos", {}, 200);
  });

  it("deleting a repository: admin rights and the delete_repo scope, then it is gone", async () => {
    const forked = { owner: "hubot", repo: "todo-api" };
    await check(t.octokit("hubot", ["public_repo"]), "POST /repos/{owner}/{repo}/forks", o, 202);
    await check(t.octokit("hubot", ["public_repo"]), "DELETE /repos/{owner}/{repo}", forked, 403);
    await check(t.octokit("octocat", ["repo", "delete_repo"]), "DELETE /repos/{owner}/{repo}", forked, 403);
    const owner = t.octokit("hubot", ["public_repo", "delete_repo"]);
    await check(owner, "DELETE /repos/{owner}/{repo}", forked, 204);
    await check(owner, "GET /repos/{owner}/{repo}", forked, 404);
    await check(owner, "DELETE /repos/{owner}/{repo}", forked, 404);
    const forks = await check(owner, "GET /repos/{owner}/{repo}/forks", o, 200);
    expect(forks.map((f: { full_name: string }) => f.full_name)).not.toContain("hubot/todo-api");
    // Forking again makes a new fork under the freed name.
    const again = await check(owner, "POST /repos/{owner}/{repo}/forks", o, 202);
    expect(again.full_name).toBe("hubot/todo-api");
  });

  it("errors", async () => {
    await check(new Octokit({ baseUrl: t.sandbox.url }), "GET /user", {}, 401);
    // An organization's OAuth App access restrictions: a 403 on its repository, no rate limit.
    t.sandbox.control.failNext({ path: /^\/repos\/octocat\/todo-api$/, status: 403, kind: "restricted" });
    const refused = await check(me, "GET /repos/{owner}/{repo}", o, 403);
    expect(refused.message).toMatch(/the `octocat` organization has enabled OAuth App access restrictions/);
  });

  it("the schema check itself rejects a payload with a wrong field type or a missing required field", async () => {
    const { spec, ajv } = started();
    const { data } = await me.request("GET /repos/{owner}/{repo}", o);
    const schema = spec.paths["/repos/{owner}/{repo}"]?.get?.responses["200"]?.content?.["application/json"]?.schema;
    const validate = ajv.compile(toJsonSchema(schema) as Schema);
    expect(validate(data)).toBe(true);
    const { default_branch: _dropped, ...missing } = data;
    expect(validate(missing)).toBe(false);
    expect(validate({ ...data, id: String(data.id) })).toBe(false);
    expect(validate({ ...data, description: null, owner: { ...data.owner, login: 42 } })).toBe(false);
  });
});
