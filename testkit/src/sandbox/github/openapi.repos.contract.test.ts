import zlib from "node:zlib";
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

  it("a repository tarball: 302 to codeload, which serves a gzip tar under <owner>-<repo>-<shortsha>/", async () => {
    const manual = { request: { redirect: "manual" as const } };
    const head = t.git(o.owner, o.repo, "rev-parse", "main");
    await check(me, "GET /repos/{owner}/{repo}/tarball/{ref}", { ...o, ref: "main", ...manual }, 302);
    const { headers } = await me.request("GET /repos/{owner}/{repo}/tarball/{ref}", { ...o, ref: head, ...manual });
    const location = new URL(String(headers.location));
    expect(location.pathname).toBe(`/_codeload/${o.owner}/${o.repo}/legacy.tar.gz/${head}`);
    expect(location.searchParams.get("token")).toMatch(/^[0-9a-f]{40}$/);
    // Followed, as clients do: the archive, with no Authorization needed (the ticket is the key).
    const got = await fetch(location);
    expect([got.status, got.headers.get("content-type")]).toEqual([200, "application/x-gzip"]);
    const tar = zlib.gunzipSync(Buffer.from(await got.arrayBuffer()));
    const names: string[] = [];
    for (let at = 0; at + 512 <= tar.length;) {
      const name = tar
        .subarray(at, at + 100)
        .toString("utf8")
        .replace(/\0.*$/s, "");
      const size = parseInt(
        tar
          .subarray(at + 124, at + 136)
          .toString("utf8")
          .replace(/\0.*$/s, "") || "0",
        8,
      );
      if (!name) break;
      names.push(name);
      at += 512 + Math.ceil(size / 512) * 512;
    }
    const top = `${o.owner}-${o.repo}-${head.slice(0, 7)}/`;
    expect(names.filter((n) => n !== "pax_global_header").every((n) => n.startsWith(top))).toBe(true);
    expect(names).toContain(`${top}README.md`);
    // A forged or reused-elsewhere ticket opens nothing; a private repository stays 404 without access.
    const forged = new URL(location);
    forged.searchParams.set("token", "0".repeat(40));
    expect((await fetch(forged)).status).toBe(404);
    const other = new URL(location);
    other.pathname = `/_codeload/${o.owner}/weather-cli/legacy.tar.gz/${head}`;
    expect((await fetch(other)).status).toBe(404);
    // An unknown ref: 404 (GitHub does not describe it in the schema).
    await expect(
      me.request("GET /repos/{owner}/{repo}/tarball/{ref}", { ...o, ref: "no-such-ref", ...manual }),
    ).rejects.toMatchObject({ status: 404 });
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
