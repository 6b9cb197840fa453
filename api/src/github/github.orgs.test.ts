import { describe, expect, it } from "vitest";
import { issues, repositories } from "@fixloop/db";
import { json, type RepoItem } from "../../test/github.testkit";
import { createTestStack } from "../../test/stack";

const stack = await createTestStack({ workers: ["sync"] });
const { app, db } = stack;

describe("organisation repositories", () => {
  it("lists those reached through a team or the org's base permission, with that access, and drops one the team no longer grants", async () => {
    const gh = stack.github.control;
    gh.createOrganization("acme", { defaultPermission: "none" });
    gh.createOrganization("initech", { defaultPermission: "read" });
    await gh.createRepository("acme", "team-repo", { private: true });
    await gh.createRepository("acme", "hidden", { private: true });
    await gh.createRepository("initech", "handbook", { private: true });
    for (const org of ["acme", "initech"]) gh.addOrgMember(org, "monalisa");
    gh.createTeam("acme", "devs", ["monalisa"]);
    gh.addTeamRepository("acme", "devs", "team-repo", "push");
    const { headers } = await stack.signIn("monalisa", { scopes: ["repo"] });
    const list = async () => {
      const res = await app.request("/api/github/repositories", { headers });
      expect(res.status).toBe(200);
      const body = await json<{ repositories: RepoItem[]; syncing?: boolean }>(res);
      expect(body.syncing).toBeUndefined();
      return body.repositories.map((r) => [r.fullName, r.canPush, r.isPrivate]);
    };

    expect(await list()).toEqual([
      ["acme/team-repo", true, true],
      ["initech/handbook", false, true],
    ]);

    gh.removeTeamMember("acme", "devs", "monalisa");
    expect(await list()).toEqual([["initech/handbook", false, true]]);
  });

  it("treats one the user may only read like any read-only repository: its issues and label trigger are refused, nothing stored", async () => {
    const gh = stack.github.control;
    gh.createOrganization("globex", { defaultPermission: "read" });
    await gh.createRepository("globex", "docs");
    await gh.createRepository("globex", "app");
    gh.addOrgMember("globex", "monalisa");
    gh.createTeam("globex", "core", ["monalisa"]);
    gh.addTeamRepository("globex", "core", "app", "maintain");
    gh.addIssues("globex", "docs", [{ title: "Typo in the install guide", user: "hubot" }]);
    gh.addIssues("globex", "app", [{ title: "Crash on empty input", user: "hubot" }]);
    const { headers, user } = await stack.signIn("monalisa", { scopes: ["public_repo"] });
    const repos = await json<{ repositories: RepoItem[] }>(await app.request("/api/github/repositories", { headers }));
    expect(
      repos.repositories.filter((r) => r.fullName.startsWith("globex/")).map((r) => [r.fullName, r.canPush]),
    ).toEqual([
      ["globex/app", true],
      ["globex/docs", false],
    ]);

    for (const res of [
      await app.request("/api/github/repositories/globex/docs/issues", { headers }),
      await app.request("/api/github/repositories/globex/docs/sync", { method: "POST", headers }),
    ]) {
      expect(res.status).toBe(403);
      const { error } = await json<{ error: { code: string; message: string } }>(res);
      expect(error).toEqual({
        code: "github.not_your_repository",
        message: expect.stringMatching(/import its issues by URL/),
      });
    }
    const trigger = await app.request("/api/github/repositories/globex/docs/label-trigger", {
      method: "PUT",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ enabled: true, label: "fixloop" }),
    });
    expect(trigger.status).toBe(403);
    expect((await json<{ error: { code: string } }>(trigger)).error.code).toBe("label_trigger.not_allowed");
    const issuesOf = (repo: string) =>
      issues
        .selectIssues(db)
        .clearSelect()
        .select("issues.issue_number")
        .where("issues.user_id", "=", user._id)
        .where("issue_repo.full_name", "=", repo)
        .execute();
    expect(await issuesOf("globex/docs")).toEqual([]);
    const settings = await repositories
      .selectWithGithub(db)
      .clearSelect()
      .select(["repositories.solve_label", "repositories.can_push"])
      .where("repositories.user_id", "=", user._id)
      .where("g.full_name", "=", "globex/docs")
      .executeTakeFirstOrThrow();
    expect(settings).toEqual({ solve_label: null, can_push: false });

    // Push through a team: its issues are fetched like those of the user's own repository.
    const fetched = await app.request("/api/github/repositories/globex/app/issues", { headers });
    expect(fetched.status).toBe(200);
    expect(await json<{ count: number }>(fetched)).toEqual({ count: 1 });
    expect(await issuesOf("globex/app")).toEqual([{ issue_number: 1 }]);
  });
});
