import type { RequestError } from "@octokit/request-error";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "../../../test/github-sandbox";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.stop());

const statusOf = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e: RequestError) => e.status,
  );

describe("visibility and permissions", () => {
  it("shows a private repository only to its owner with the repo scope", async () => {
    const ownerRepo = t.octokit("octocat", ["repo"]);
    const { data } = await ownerRepo.rest.repos.get({ owner: "octocat", repo: "secret-notes" });
    expect(data).toMatchObject({
      private: true,
      visibility: "private",
      permissions: { admin: true, push: true, pull: true },
    });
    expect(
      await statusOf(t.octokit("octocat", ["public_repo"]).rest.repos.get({ owner: "octocat", repo: "secret-notes" })),
    ).toBe(404);
    expect(
      await statusOf(t.octokit("hubot", ["repo"]).rest.repos.get({ owner: "octocat", repo: "secret-notes" })),
    ).toBe(404);
    expect(
      await statusOf(t.octokit("hubot", ["repo"]).rest.issues.listForRepo({ owner: "octocat", repo: "secret-notes" })),
    ).toBe(404);
  });

  it("lists the user's repositories with Link pagination, private ones only with the repo scope", async () => {
    const full = await t.octokit("octocat", ["repo"]).rest.repos.listForAuthenticatedUser({ per_page: 2 });
    expect(full.data.map((r) => r.full_name)).toEqual(["octocat/secret-notes", "octocat/todo-api"]);
    expect(full.headers.link).toContain('rel="next"');
    const all = await t.octokit("octocat", ["repo"]).paginate("GET /user/repos", { per_page: 2 });
    expect(all.map((r) => r.name).sort()).toEqual(["secret-notes", "todo-api", "url-shortener", "weather-cli"]);
    const publicOnly = await t
      .octokit("octocat", ["public_repo"])
      .rest.repos.listForAuthenticatedUser({ per_page: 100 });
    expect(publicOnly.data.map((r) => r.name).sort()).toEqual(["todo-api", "url-shortener", "weather-cli"]);
  });

  it("needs public_repo or repo for writes (404 without, like GitHub) and push permission (403)", async () => {
    const readOnly = t.octokit("octocat", ["read:user"]);
    const { data: main } = await readOnly.rest.git.getRef({ owner: "octocat", repo: "todo-api", ref: "heads/main" });
    const create = (gh: ReturnType<TestSandbox["octokit"]>, ref: string) =>
      gh.rest.git.createRef({ owner: "octocat", repo: "todo-api", ref, sha: main.object.sha });
    const noScope = (await create(readOnly, "refs/heads/a").catch((e: unknown) => e)) as RequestError;
    expect(noScope.status).toBe(404);
    expect(noScope.response?.headers["x-accepted-oauth-scopes"]).toBe("public_repo, repo");
    expect(await statusOf(create(t.octokit("hubot", ["public_repo"]), "refs/heads/b"))).toBe(403);
    expect(await statusOf(create(t.octokit("octocat", ["public_repo"]), "refs/heads/c"))).toBe(200);
    expect(
      await statusOf(t.octokit("hubot", ["read:user"]).rest.repos.createFork({ owner: "octocat", repo: "todo-api" })),
    ).toBe(404);
  });

  it("answers /user, /user/emails and /rate_limit for the token's user", async () => {
    const gh = t.octokit("hubot", ["read:user", "user:email"]);
    const { data: user, headers } = await gh.rest.users.getAuthenticated();
    expect(user).toMatchObject({ login: "hubot", id: 480938, type: "User", public_repos: 1 });
    expect(headers["x-oauth-scopes"]).toBe("read:user, user:email");
    const { data: emails } = await gh.rest.users.listEmailsForAuthenticatedUser();
    expect(emails[0]).toEqual({ email: "hubot@github.com", primary: true, verified: true, visibility: "public" });
    expect(await statusOf(t.octokit("hubot", ["read:user"]).rest.users.listEmailsForAuthenticatedUser())).toBe(404);
    const { data: limits } = await gh.rest.rateLimit.get();
    expect(limits.resources.core).toMatchObject({ limit: 5000, remaining: expect.any(Number) });
    const anonymous = await fetch(`${t.sandbox.url}/user`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("x-ratelimit-limit")).toBe("60");
  });
});

describe("organisations", () => {
  it("lists the repositories a member reaches through a team or the base permission, with that access", async () => {
    const control = t.sandbox.control;
    control.createOrganization("acme", { defaultPermission: "none" });
    control.createOrganization("initech", { defaultPermission: "read" });
    await control.createRepository("acme", "team-repo", { private: true });
    await control.createRepository("acme", "hidden", { private: true });
    await control.createRepository("initech", "handbook", { private: true });
    for (const org of ["acme", "initech"]) control.addOrgMember(org, "monalisa");
    control.createTeam("acme", "devs", ["monalisa"]);
    control.addTeamRepository("acme", "devs", "team-repo", "push");
    const monalisa = t.octokit("monalisa", ["repo"]);

    const listed = await monalisa.paginate("GET /user/repos", { per_page: 1 });
    expect(listed.map((r) => [r.full_name, r.owner.type, r.permissions])).toEqual([
      ["acme/team-repo", "Organization", { admin: false, maintain: false, push: true, triage: true, pull: true }],
      ["initech/handbook", "Organization", { admin: false, maintain: false, push: false, triage: false, pull: true }],
    ]);
    const direct = await monalisa.paginate("GET /user/repos", { affiliation: "owner,collaborator" });
    expect(direct).toEqual([]);
    expect(await statusOf(monalisa.rest.repos.get({ owner: "acme", repo: "hidden" }))).toBe(404);
    expect(await statusOf(t.octokit("hubot", ["repo"]).rest.repos.get({ owner: "acme", repo: "team-repo" }))).toBe(404);
    // Read through the base permission: no writes (403, as on GitHub).
    const { data: main } = await monalisa.rest.git.getRef({ owner: "initech", repo: "handbook", ref: "heads/main" });
    const write = monalisa.rest.git.createRef({
      owner: "initech",
      repo: "handbook",
      ref: "refs/heads/x",
      sha: main.object.sha,
    });
    expect(await statusOf(write)).toBe(403);

    // Organisations author nothing: an issue on their repository needs a user as author.
    expect(() => control.addIssues("acme", "team-repo", [{ title: "No author" }])).toThrow(/need a user author/);
    expect(control.addIssues("acme", "team-repo", [{ title: "Flaky build", user: "monalisa" }])).toEqual([1]);
    const { data: issues } = await monalisa.rest.issues.listForRepo({ owner: "acme", repo: "team-repo" });
    expect(issues.map((i) => [i.title, i.user?.login, i.author_association])).toEqual([
      ["Flaky build", "monalisa", "MEMBER"],
    ]);

    // An org owner is admin everywhere; leaving the team takes the team's repository away.
    control.addOrgMember("acme", "hubot", "admin");
    const { data: asOwner } = await t.octokit("hubot", ["repo"]).rest.repos.get({ owner: "acme", repo: "hidden" });
    expect(asOwner.permissions).toMatchObject({ admin: true, push: true, pull: true });
    control.removeTeamMember("acme", "devs", "monalisa");
    const after = await monalisa.paginate("GET /user/repos", { per_page: 100 });
    expect(after.map((r) => r.full_name)).toEqual(["initech/handbook"]);
    expect(await statusOf(monalisa.rest.repos.get({ owner: "acme", repo: "team-repo" }))).toBe(404);
  });
});

describe("contents and git data", () => {
  it("serves file content as base64, directories as arrays, raw on request, 404 for missing paths", async () => {
    const gh = t.octokit("hubot", []);
    const { data: file } = await gh.rest.repos.getContent({
      owner: "octocat",
      repo: "url-shortener",
      path: "shortener/code.go",
    });
    if (Array.isArray(file) || file.type !== "file") throw new Error("expected a file");
    expect(file).toMatchObject({ encoding: "base64", path: "shortener/code.go", name: "code.go" });
    expect(Buffer.from(file.content, "base64").toString()).toContain("func Encode(id uint64) string");
    expect(file.sha).toBe(t.git("octocat", "url-shortener", "rev-parse", "main:shortener/code.go"));
    const { data: dir } = await gh.rest.repos.getContent({
      owner: "octocat",
      repo: "url-shortener",
      path: "shortener",
    });
    expect(Array.isArray(dir) && dir.map((e) => e.name)).toContain("store.go");
    const raw = await gh.rest.repos.getContent({
      owner: "octocat",
      repo: "url-shortener",
      path: "go.mod",
      mediaType: { format: "raw" },
    });
    expect(String(raw.data)).toContain("module github.com/octocat/url-shortener");
    expect(await statusOf(gh.rest.repos.getContent({ owner: "octocat", repo: "url-shortener", path: "nope.go" }))).toBe(
      404,
    );
    expect(
      await statusOf(
        gh.rest.repos.getContent({ owner: "octocat", repo: "url-shortener", path: "go.mod", ref: "no-such-branch" }),
      ),
    ).toBe(404);
  });

  it("returns recursive trees with a truncated flag and builds trees that delete paths", async () => {
    const gh = t.octokit("octocat", ["public_repo"]);
    const { data: tree } = await gh.rest.git.getTree({
      owner: "octocat",
      repo: "weather-cli",
      tree_sha: "main",
      recursive: "1",
    });
    expect(tree.truncated).toBe(false);
    expect(tree.tree.map((e) => e.path)).toEqual(
      expect.arrayContaining(["weather", "weather/units.py", ".github/workflows/ci.yml"]),
    );
    expect(tree.tree.find((e) => e.path === "weather/units.py")).toMatchObject({
      type: "blob",
      mode: "100644",
      size: expect.any(Number),
    });
    const { data: next } = await gh.rest.git.createTree({
      owner: "octocat",
      repo: "weather-cli",
      base_tree: tree.sha,
      tree: [
        { path: "weather/client.py", mode: "100644", type: "blob", sha: null },
        { path: "docs/usage.md", mode: "100644", type: "blob", content: "# Usage\n" },
      ],
    });
    const listed = t.git("octocat", "weather-cli", "ls-tree", "-r", "--name-only", next.sha).split("\n");
    expect(listed).toContain("docs/usage.md");
    expect(listed).not.toContain("weather/client.py");
    expect(listed).toContain("weather/cli.py");
  });

  it("validates refs like GitHub: bad names, existing refs, non-fast-forward updates unless forced", async () => {
    const gh = t.octokit("octocat", ["public_repo"]);
    const repo = { owner: "octocat", repo: "url-shortener" };
    const { data: main } = await gh.rest.git.getRef({ ...repo, ref: "heads/main" });
    const bad = (await gh.rest.git
      .createRef({ ...repo, ref: "heads/x", sha: main.object.sha })
      .catch((e: unknown) => e)) as RequestError;
    expect([bad.status, (bad.response?.data as { message: string }).message]).toEqual([
      422,
      "Reference name must start with 'refs' and have at least two slashes.",
    ]);
    const exists = (await gh.rest.git
      .createRef({ ...repo, ref: "refs/heads/main", sha: main.object.sha })
      .catch((e: unknown) => e)) as RequestError;
    expect([exists.status, (exists.response?.data as { message: string }).message]).toEqual([
      422,
      "Reference already exists",
    ]);

    const { data: tree } = await gh.rest.git.createTree({
      ...repo,
      tree: [{ path: "only.txt", mode: "100644", type: "blob", content: "x\n" }],
    });
    const { data: orphan } = await gh.rest.git.createCommit({
      ...repo,
      message: "orphan",
      tree: tree.sha,
      parents: [],
    });
    await gh.rest.git.createRef({ ...repo, ref: "refs/heads/topic", sha: main.object.sha });
    expect(await statusOf(gh.rest.git.updateRef({ ...repo, ref: "heads/topic", sha: orphan.sha }))).toBe(422);
    const forced = await gh.rest.git.updateRef({ ...repo, ref: "heads/topic", sha: orphan.sha, force: true });
    expect(forced.data.object.sha).toBe(orphan.sha);
    expect(t.git("octocat", "url-shortener", "rev-parse", "topic")).toBe(orphan.sha);
    await gh.rest.git.deleteRef({ ...repo, ref: "heads/topic" });
    expect(await statusOf(gh.rest.git.getRef({ ...repo, ref: "heads/topic" }))).toBe(404);
    expect(
      await statusOf(gh.rest.git.createCommit({ ...repo, message: "m", tree: tree.sha, parents: ["0".repeat(40)] })),
    ).toBe(422);
  });
});
