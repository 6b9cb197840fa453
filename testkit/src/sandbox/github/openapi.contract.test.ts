import fs from "node:fs";
import path from "node:path";
import { RequestError } from "@octokit/request-error";
import { Octokit } from "@octokit/rest";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../paths";
import { startTestSandbox, type TestSandbox } from "../../../test/github-sandbox";

const SPEC_FILE = path.join(ROOT, "node_modules/@octokit/openapi/generated/api.github.com.deref.json");
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

type Schema = Record<string, unknown>;
interface Spec {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>
  >;
}

/** OpenAPI 3.0 → JSON Schema: `nullable` becomes a null alternative; GitHub's overlapping oneOfs are read as anyOf. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== "object") return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node as Schema)) {
    if (
      [
        "nullable",
        "example",
        "examples",
        "discriminator",
        "deprecated",
        "readOnly",
        "writeOnly",
        "externalDocs",
      ].includes(key) ||
      key.startsWith("x-")
    )
      continue;
    if (key === "properties" && value && typeof value === "object") {
      out.properties = Object.fromEntries(
        Object.entries(value as Schema).map(([name, sub]) => [name, toJsonSchema(sub)]),
      );
    } else {
      out[key === "oneOf" ? "anyOf" : key] = toJsonSchema(value);
    }
  }
  return (node as Schema).nullable === true ? { anyOf: [out, { type: "null" }] } : out;
}

let spec: Spec;
let t: TestSandbox;
const ajv = addFormats(new Ajv({ strict: false, allErrors: true, logger: false }));
const compiled = new Map<string, ValidateFunction>();
const checked: string[] = [];

beforeAll(async () => {
  spec = JSON.parse(fs.readFileSync(SPEC_FILE, "utf8")) as Spec;
  t = await startTestSandbox();
}, 120_000);
afterAll(async () => {
  await t?.stop();
  console.log(
    `OpenAPI contract: ${checked.length} responses validated against api.github.com.deref.json\n  ${checked.join("\n  ")}`,
  );
});

/**
 * Calls `route` through Octokit and validates the body against the official schema for the status
 * received: `route`'s own, or `documentedAs`'s for a path GitHub serves but does not describe
 * (`/repositories/{id}/…` answers as `/repos/{owner}/{repo}/…`).
 */
async function check(
  gh: Octokit,
  route: string,
  params: Record<string, unknown>,
  expectedStatus: number,
  documentedAs = route,
): Promise<any> {
  const [method = "", specPath = ""] = documentedAs.split(" ");
  let status: number;
  let data: unknown;
  try {
    ({ status, data } = await gh.request(route, params));
  } catch (error) {
    if (!(error instanceof RequestError)) throw error;
    status = error.status;
    data = error.response?.data;
  }
  expect(status, `${route} status`).toBe(expectedStatus);
  const operation = spec.paths[specPath]?.[method.toLowerCase()];
  const response = operation?.responses[String(status)];
  expect(response, `${route} ${status} is documented`).toBeDefined();
  const schema = response?.content?.["application/json"]?.schema;
  if (!schema) {
    expect(data === undefined || data === "" || data === null, `${route} ${status} has no body`).toBe(true);
  } else {
    const key = `${route} ${status}`;
    const validate = compiled.get(key) ?? ajv.compile(toJsonSchema(schema) as Schema);
    compiled.set(key, validate);
    // Compiling a large schema (the timeline's) blocks the event loop past the keep-alive timeout;
    // let both ends close the idle connection before the next request would reuse it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const ok = validate(data);
    expect(ok ? [] : validate.errors?.slice(0, 8), `${route} ${status} matches the OpenAPI schema`).toEqual([]);
  }
  checked.push(`${route} → ${status}`);
  return data;
}

describe("responses match GitHub's OpenAPI description", () => {
  const o = { owner: "octocat", repo: "todo-api" };
  const fork = { owner: "octocat", repo: "markdown-lint" };
  const upstream = { owner: "hubot", repo: "markdown-lint" };
  let me: Octokit;
  const state: { head: string; tree: string; blob: string; commit: string; second: string; pr: number } = {
    head: "",
    tree: "",
    blob: "",
    commit: "",
    second: "",
    pr: 0,
  };

  beforeAll(() => {
    me = t.octokit("octocat", ["repo", "user"]);
  });

  it("users, repositories, issues and rate limit", async () => {
    await check(me, "GET /user", {}, 200);
    await check(me, "GET /user/emails", {}, 200);
    await check(me, "GET /user/repos", { per_page: 100 }, 200);
    await check(me, "GET /users/{username}", { username: "hubot" }, 200);
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

  it("forks", async () => {
    await check(me, "POST /repos/{owner}/{repo}/forks", upstream, 202);
    const full = await check(me, "GET /repos/{owner}/{repo}", fork, 200);
    expect(full.parent.full_name).toBe("hubot/markdown-lint");
    await check(me, "GET /repos/{owner}/{repo}/forks", upstream, 200);
  });

  it("git data and contents", async () => {
    const ref = await check(me, "GET /repos/{owner}/{repo}/git/ref/{ref}", { ...fork, ref: "heads/main" }, 200);
    state.head = ref.object.sha;
    await check(me, "GET /repos/{owner}/{repo}/git/matching-refs/{ref}", { ...fork, ref: "heads/" }, 200);
    const commit = await check(
      me,
      "GET /repos/{owner}/{repo}/git/commits/{commit_sha}",
      { ...fork, commit_sha: state.head },
      200,
    );
    state.tree = commit.tree.sha;
    await check(
      me,
      "GET /repos/{owner}/{repo}/git/trees/{tree_sha}",
      { ...fork, tree_sha: state.tree, recursive: "1" },
      200,
    );
    await check(me, "GET /repos/{owner}/{repo}/contents/{path}", { ...fork, path: "README.md" }, 200);
    await check(me, "GET /repos/{owner}/{repo}/contents/{path}", { ...fork, path: "src/rules" }, 200);
    await check(me, "GET /repos/{owner}/{repo}/contents/{path}", { ...fork, path: "missing.md" }, 404);
    const blob = await check(
      me,
      "POST /repos/{owner}/{repo}/git/blobs",
      { ...fork, content: "const TRAILING = /[ \\t]+$/;\n", encoding: "utf-8" },
      201,
    );
    state.blob = blob.sha;
    await check(me, "GET /repos/{owner}/{repo}/git/blobs/{file_sha}", { ...fork, file_sha: state.blob }, 200);
    const tree = await check(
      me,
      "POST /repos/{owner}/{repo}/git/trees",
      {
        ...fork,
        base_tree: state.tree,
        tree: [{ path: "src/rules/trailing-spaces.js", mode: "100644", type: "blob", sha: state.blob }],
      },
      201,
    );
    const created = await check(
      me,
      "POST /repos/{owner}/{repo}/git/commits",
      { ...fork, message: "Match trailing tabs", tree: tree.sha, parents: [state.head] },
      201,
    );
    state.commit = created.sha;
    await check(
      me,
      "POST /repos/{owner}/{repo}/git/refs",
      { ...fork, ref: "refs/heads/fix-tabs", sha: state.commit },
      201,
    );
    const second = await check(
      me,
      "POST /repos/{owner}/{repo}/git/commits",
      { ...fork, message: "Follow-up", tree: tree.sha, parents: [state.commit] },
      201,
    );
    state.second = second.sha;
    await check(
      me,
      "PATCH /repos/{owner}/{repo}/git/refs/{ref}",
      { ...fork, ref: "heads/fix-tabs", sha: state.second },
      200,
    );
    // The stand-in records each ref update with the force flag it was asked for.
    expect(t.sandbox.control.refUpdates.at(-1)).toMatchObject({
      repo: "octocat/markdown-lint",
      ref: "refs/heads/fix-tabs",
      from: state.commit,
      to: state.second,
      force: false,
      fastForward: true,
    });
    await check(
      me,
      "POST /repos/{owner}/{repo}/git/refs",
      { ...fork, ref: "refs/heads/throwaway", sha: state.commit },
      201,
    );
    await check(me, "DELETE /repos/{owner}/{repo}/git/refs/{ref}", { ...fork, ref: "heads/throwaway" }, 204);
  });

  it("pull requests, merge and merge-upstream", async () => {
    const pr = await check(
      me,
      "POST /repos/{owner}/{repo}/pulls",
      { ...upstream, title: "Match trailing tabs", head: "octocat:fix-tabs", base: "main", body: "Fixes #3" },
      201,
    );
    state.pr = pr.number;
    await check(
      me,
      "POST /repos/{owner}/{repo}/pulls",
      { ...upstream, title: "again", head: "octocat:fix-tabs", base: "main" },
      422,
    );
    await check(me, "GET /repos/{owner}/{repo}/pulls", { ...upstream, state: "all" }, 200);
    await check(me, "GET /repos/{owner}/{repo}/pulls/{pull_number}", { ...upstream, pull_number: state.pr }, 200);
    await check(me, "GET /repos/{owner}/{repo}/pulls/{pull_number}", { ...upstream, pull_number: 1 }, 404);
    await check(me, "GET /repos/{owner}/{repo}/issues/{issue_number}", { ...upstream, issue_number: state.pr }, 200);
    await check(
      me,
      "PATCH /repos/{owner}/{repo}/pulls/{pull_number}",
      { ...upstream, pull_number: state.pr, title: "Match trailing tabs as well as spaces" },
      200,
    );
    const reviewer = t.octokit("hubot", ["public_repo"]);
    const at = { ...upstream, pull_number: state.pr };
    const head = (pr as { head: { sha: string } }).head.sha;
    const comment = await check(
      reviewer,
      "POST /repos/{owner}/{repo}/pulls/{pull_number}/comments",
      { ...at, body: "Tabs too?", path: "README.md", line: 1, commit_id: head },
      201,
    );
    // Addressing the review: a reply on the thread, then the body's evidence section rewritten.
    const reply = await check(
      me,
      "POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies",
      { ...at, comment_id: comment.id, body: "Addressed in abc1234" },
      201,
    );
    expect(reply).toMatchObject({ in_reply_to_id: comment.id, path: "README.md", user: { login: "octocat" } });
    await check(
      me,
      "POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies",
      { ...at, comment_id: 987654321, body: "Nobody here" },
      404,
    );
    const patched = await check(
      me,
      "PATCH /repos/{owner}/{repo}/pulls/{pull_number}",
      { ...at, body: "## Validation\n\n- Revision 2 pushed" },
      200,
    );
    expect(patched.body).toBe("## Validation\n\n- Revision 2 pushed");
    await check(reviewer, "POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews", { ...at, event: "APPROVE" }, 200);
    await check(
      reviewer,
      "POST /repos/{owner}/{repo}/check-runs",
      { ...upstream, name: "ci", head_sha: head, status: "completed", conclusion: "success" },
      201,
    );
    await check(me, "GET /repos/{owner}/{repo}/pulls/{pull_number}/comments", at, 200);
    await check(me, "GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews", at, 200);
    await check(me, "GET /repos/{owner}/{repo}/commits/{ref}/check-runs", { ...upstream, ref: head }, 200);
    await check(
      t.octokit("hubot", ["public_repo"]),
      "PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge",
      { ...upstream, pull_number: state.pr },
      200,
    );
    await check(me, "GET /repos/{owner}/{repo}/pulls/{pull_number}", { ...upstream, pull_number: state.pr }, 200);
    await check(me, "POST /repos/{owner}/{repo}/merge-upstream", { ...fork, branch: "main" }, 200);
  });

  it("a repository's past: merged pull requests that closed issues, and the files each changed", async () => {
    const past = { owner: "octocat", repo: "url-shortener" };
    const closed = await check(me, "GET /repos/{owner}/{repo}/pulls", { ...past, state: "closed" }, 200);
    const merged = closed.filter((p: { merged_at: string | null }) => p.merged_at);
    expect(merged.map((p: { number: number }) => p.number)).toEqual([10, 9, 7]);
    const files = await check(
      me,
      "GET /repos/{owner}/{repo}/pulls/{pull_number}/files",
      { ...past, pull_number: 7 },
      200,
    );
    expect(files.map((f: { filename: string; status: string }) => `${f.status} ${f.filename}`)).toEqual([
      "modified shortener/handler.go",
      "modified shortener/store.go",
      "modified shortener/store_test.go",
    ]);
  });

  it("contribution checks: timeline cross-references, contribution files and draft pull requests", async () => {
    const kit = { owner: "opencommons", repo: "welcome-kit" };
    const events = await check(
      me,
      "GET /repos/{owner}/{repo}/issues/{issue_number}/timeline",
      { ...kit, issue_number: 5 },
      200,
    );
    expect(events).toEqual([
      expect.objectContaining({
        event: "cross-referenced",
        source: expect.objectContaining({
          type: "issue",
          issue: expect.objectContaining({ number: 6, state: "open" }),
        }),
      }),
    ]);
    await check(me, "GET /repos/{owner}/{repo}/issues/{issue_number}/timeline", { ...kit, issue_number: 1 }, 200);
    await check(me, "GET /repos/{owner}/{repo}/issues/{issue_number}/timeline", { ...kit, issue_number: 99 }, 404);
    await check(
      me,
      "GET /repos/{owner}/{repo}/contents/{path}",
      { owner: "opencommons", repo: "no-robots", path: "AI_POLICY.md" },
      200,
    );
    await check(
      me,
      "GET /repos/{owner}/{repo}/contents/{path}",
      { ...kit, path: ".github/PULL_REQUEST_TEMPLATE.md" },
      200,
    );
    /** A branch `draft-check` one commit ahead of main, to open a pull request from. */
    const draftBranch = async (r: { owner: string; repo: string }) => {
      const main = await me.request("GET /repos/{owner}/{repo}/git/ref/{ref}", { ...r, ref: "heads/main" });
      const parent = await me.request("GET /repos/{owner}/{repo}/git/commits/{commit_sha}", {
        ...r,
        commit_sha: main.data.object.sha,
      });
      const tree = await me.request("POST /repos/{owner}/{repo}/git/trees", {
        ...r,
        base_tree: parent.data.tree.sha,
        tree: [{ path: "DRAFT.md", mode: "100644", type: "blob", content: "draft\n" }],
      });
      const commit = await me.request("POST /repos/{owner}/{repo}/git/commits", {
        ...r,
        message: "Draft",
        tree: tree.data.sha,
        parents: [main.data.object.sha],
      });
      await me.request("POST /repos/{owner}/{repo}/git/refs", {
        ...r,
        ref: "refs/heads/draft-check",
        sha: commit.data.sha,
      });
    };
    await draftBranch(o);
    const draft = await check(
      me,
      "POST /repos/{owner}/{repo}/pulls",
      { ...o, title: "Draft follow-up", head: "draft-check", base: "main", body: "Draft", draft: true },
      201,
    );
    expect(draft.draft).toBe(true);
    const got = await check(
      me,
      "GET /repos/{owner}/{repo}/pulls/{pull_number}",
      { ...o, pull_number: draft.number },
      200,
    );
    expect(got.draft).toBe(true);

    // A private repository of an account on GitHub Free has no drafts; on a plan with them it has.
    const secret = { owner: "octocat", repo: "secret-notes" };
    await draftBranch(secret);
    const draftOf = { ...secret, title: "Draft note", head: "draft-check", base: "main", draft: true };
    const refused = await check(me, "POST /repos/{owner}/{repo}/pulls", draftOf, 422);
    expect(refused).toMatchObject({
      message: "Draft pull requests are not supported in this repository.",
      documentation_url: "https://docs.github.com/rest/pulls/pulls#create-a-pull-request",
    });
    expect(t.sandbox.control.listPulls("octocat", "secret-notes")).toEqual([]);
    t.sandbox.control.setPlan("octocat", "team");
    try {
      const opened = await check(me, "POST /repos/{owner}/{repo}/pulls", draftOf, 201);
      expect(opened.draft).toBe(true);
    } finally {
      t.sandbox.control.setPlan("octocat", "free");
    }
  });

  it("issue labels and comments: a test user labels an issue, Fixloop comments on it", async () => {
    const issue = { ...o, issue_number: 3 };
    const labels = await check(
      me,
      "POST /repos/{owner}/{repo}/issues/{issue_number}/labels",
      { ...issue, labels: ["fixloop"] },
      200,
    );
    expect(labels.map((l: { name: string }) => l.name)).toContain("fixloop");
    await check(me, "POST /repos/{owner}/{repo}/issues/{issue_number}/labels", { ...issue, labels: "fixloop" }, 422);
    const created = await check(
      me,
      "POST /repos/{owner}/{repo}/issues/{issue_number}/comments",
      { ...issue, body: "On it" },
      201,
    );
    const listed = await check(me, "GET /repos/{owner}/{repo}/issues/{issue_number}/comments", issue, 200);
    expect(listed.map((c: { id: number }) => c.id)).toEqual([created.id]);
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

  it("an issue deleted (410) or transferred (301 to its new place, followed to it)", async () => {
    const [deleted = 0, moved = 0] = t.sandbox.control.addIssues("octocat", "todo-api", [
      { title: "Spam" },
      { title: "Belongs in the URL shortener" },
    ]);
    t.sandbox.control.deleteIssue("octocat", "todo-api", deleted);
    const gone = await check(
      me,
      "GET /repos/{owner}/{repo}/issues/{issue_number}",
      { ...o, issue_number: deleted },
      410,
    );
    expect(gone.message).toBe("This issue was deleted");
    const n = t.sandbox.control.transferIssue("octocat", "todo-api", moved, {
      owner: "octocat",
      repo: "url-shortener",
    });
    const redirect = await check(
      me,
      "GET /repos/{owner}/{repo}/issues/{issue_number}",
      { ...o, issue_number: moved, request: { redirect: "manual" } },
      301,
    );
    expect(redirect.url).toMatch(new RegExp(`/repositories/\\d+/issues/${n}$`));
    const followed = await check(
      me,
      "GET /repos/{owner}/{repo}/issues/{issue_number}",
      { ...o, issue_number: moved },
      200,
    );
    expect([followed.number, followed.repository_url]).toEqual([n, `${t.sandbox.url}/repos/octocat/url-shortener`]);
    const listed = await check(me, "GET /repos/{owner}/{repo}/issues", { ...o, state: "all", per_page: 100 }, 200);
    expect(listed.map((i: { number: number }) => i.number)).not.toContain(deleted);
    expect(listed.map((i: { number: number }) => i.number)).not.toContain(moved);
  });

  it("organisation repositories reached through a team or the base permission", async () => {
    const control = t.sandbox.control;
    control.createOrganization("contract-org", { defaultPermission: "read" });
    await control.createRepository("contract-org", "handbook", { private: true });
    await control.createRepository("contract-org", "service", { private: true });
    control.addOrgMember("contract-org", "monalisa");
    control.createTeam("contract-org", "devs", ["monalisa"]);
    control.addTeamRepository("contract-org", "devs", "service", "maintain");
    const member = t.octokit("monalisa", ["repo"]);
    const listed = await check(member, "GET /user/repos", { per_page: 100 }, 200);
    expect(
      listed.map((r: { full_name: string; owner: { type: string }; permissions: object }) => [
        r.full_name,
        r.owner.type,
        r.permissions,
      ]),
    ).toEqual([
      [
        "contract-org/handbook",
        "Organization",
        { admin: false, maintain: false, push: false, triage: false, pull: true },
      ],
      ["contract-org/service", "Organization", { admin: false, maintain: true, push: true, triage: true, pull: true }],
    ]);
    const full = await check(member, "GET /repos/{owner}/{repo}", { owner: "contract-org", repo: "service" }, 200);
    expect(full.owner).toMatchObject({ login: "contract-org", type: "Organization" });
  });

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

  it("errors", async () => {
    await check(new Octokit({ baseUrl: t.sandbox.url }), "GET /user", {}, 401);
    // An organization's OAuth App access restrictions: a 403 on its repository, no rate limit.
    t.sandbox.control.failNext({ path: /^\/repos\/octocat\/todo-api$/, status: 403, kind: "restricted" });
    const refused = await check(me, "GET /repos/{owner}/{repo}", o, 403);
    expect(refused.message).toMatch(/the `octocat` organization has enabled OAuth App access restrictions/);
  });

  it("the schema check itself rejects a payload with a wrong field type or a missing required field", async () => {
    const { data } = await me.request("GET /repos/{owner}/{repo}", o);
    const schema = spec.paths["/repos/{owner}/{repo}"]?.get?.responses["200"]?.content?.["application/json"]?.schema;
    const validate = ajv.compile(toJsonSchema(schema) as Schema);
    expect(validate(data)).toBe(true);
    const { default_branch: _dropped, ...missing } = data;
    expect(validate(missing)).toBe(false);
    expect(validate({ ...data, id: String(data.id) })).toBe(false);
    expect(validate({ ...data, description: null, owner: { ...data.owner, login: 42 } })).toBe(false);
  });

  it("covered every implemented operation", () => {
    const routes = new Set(checked.map((c) => c.split(" → ")[0]));
    expect(routes.size).toBeGreaterThanOrEqual(30);
  });
});
