import type { Octokit } from "@octokit/rest";
import { beforeAll, describe, expect, it } from "vitest";
import { openapiContract, repos } from "../../../test/openapi-contract";

const { check, started } = openapiContract("collaborators");
const { o } = repos;
const ROUTE = "GET /repos/{owner}/{repo}/collaborators/{username}/permission";
let me: Octokit;
beforeAll(() => void ({ me } = started()));

describe("responses match GitHub's OpenAPI description", () => {
  it("a user's permission on a repository: the owner admin, anyone else read on a public one, a bot or unknown login 404", async () => {
    const owner = await check(me, ROUTE, { ...o, username: "octocat" }, 200);
    expect([owner.permission, owner.role_name, owner.user.login]).toEqual(["admin", "admin", "octocat"]);
    expect(owner.user.permissions).toMatchObject({ push: true, admin: true });
    const outsider = await check(me, ROUTE, { ...o, username: "hubot" }, 200);
    expect([outsider.permission, outsider.role_name]).toEqual(["read", "read"]);
    expect(outsider.user.permissions).toMatchObject({ pull: true, push: false });
    await check(me, ROUTE, { ...o, username: "issue-labeler[bot]" }, 404);
    await check(me, ROUTE, { ...o, username: "nobody-here" }, 404);
  });
});
