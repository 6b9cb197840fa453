import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../paths";
import { startTestSandbox, type TestSandbox } from "../../../test/github-sandbox";

const SCENARIOS = path.join(ROOT, "node_modules/@octokit/fixtures/scenarios/api.github.com");

interface Exchange {
  method: string;
  path: string;
  status: number;
  reqheaders: Record<string, string>;
  headers: Record<string, string | number>;
  response: unknown;
}

const load = (scenario: string): Exchange[] =>
  JSON.parse(fs.readFileSync(path.join(SCENARIOS, scenario, "normalized-fixture.json"), "utf8")) as Exchange[];

/** Fields Fixloop reads from each object kind; each must exist in our answer with the recorded JSON type. */
const READ_FIELDS = {
  repository: [
    "id",
    "node_id",
    "name",
    "full_name",
    "private",
    "owner.login",
    "owner.id",
    "owner.avatar_url",
    "owner.type",
    "html_url",
    "description",
    "fork",
    "url",
    "default_branch",
    "language",
    "stargazers_count",
    "forks_count",
    "open_issues_count",
    "created_at",
    "updated_at",
    "pushed_at",
    "permissions.admin",
    "permissions.push",
    "permissions.pull",
    "visibility",
    "archived",
    "clone_url",
    "topics",
  ],
  issue: [
    "id",
    "node_id",
    "number",
    "title",
    "body",
    "state",
    "locked",
    "labels",
    "user.login",
    "user.id",
    "assignees",
    "comments",
    "created_at",
    "updated_at",
    "closed_at",
    "html_url",
    "url",
    "author_association",
    "state_reason",
  ],
  label: ["id", "node_id", "url", "name", "color", "description", "default"],
  content: [
    "name",
    "path",
    "sha",
    "size",
    "type",
    "url",
    "html_url",
    "git_url",
    "download_url",
    "_links.self",
    "_links.git",
    "_links.html",
  ],
  ref: ["ref", "node_id", "url", "object.sha", "object.type", "object.url"],
  error: ["message", "documentation_url", "errors"],
};

const RATE_HEADERS = [
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
  "x-ratelimit-reset",
  "x-ratelimit-used",
  "x-ratelimit-resource",
];

const jsonType = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
const at = (obj: unknown, dotted: string): unknown =>
  dotted
    .split(".")
    .reduce<unknown>((o, k) => (o && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined), obj);
const rels = (link: unknown) => [...String(link ?? "").matchAll(/rel="(\w+)"/g)].map((m) => m[1]).sort();

let t: TestSandbox;
let token = "";
const report: string[] = [];
beforeAll(async () => {
  t = await startTestSandbox();
  token = t.sandbox.control.issueToken("octocat", ["repo", "user"]);
});
afterAll(async () => {
  await t.stop();
  console.log(`@octokit/fixtures contract: ${report.length} recorded exchanges replayed\n  ${report.join("\n  ")}`);
});

/**
 * Sends the recorded request (mapped to a seeded repository) and compares status, headers and the types of
 * the fields Fixloop reads. With `sameCount`, a list must have as many items as recorded; otherwise each of
 * our items is compared with the first recorded one.
 */
async function replay(
  recorded: Exchange,
  ourPath: string,
  kind: keyof typeof READ_FIELDS | null,
  opts: { body?: unknown; sameCount?: boolean } = {},
) {
  const { body, sameCount = true } = opts;
  const res = await fetch(`${t.sandbox.url}${ourPath}`, {
    method: recorded.method.toUpperCase(),
    headers: {
      accept: recorded.reqheaders.accept ?? "application/vnd.github.v3+json",
      authorization: `token ${token}`,
      ...(body ? { "content-type": "application/json" } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const data: unknown = res.headers.get("content-type")?.includes("json") && text ? JSON.parse(text) : text;
  const label = `${recorded.method.toUpperCase()} ${recorded.path} → ${ourPath}`;
  expect(res.status, label).toBe(recorded.status);
  expect(res.headers.get("content-type") ?? "", label).toBe(String(recorded.headers["content-type"] ?? ""));
  for (const h of [
    ...RATE_HEADERS,
    "x-github-request-id",
    "x-oauth-scopes",
    "x-accepted-oauth-scopes",
    "x-github-media-type",
  ]) {
    if (recorded.headers[h] !== undefined) expect(res.headers.get(h), `${label}: header ${h}`).not.toBeNull();
  }
  if (recorded.headers.etag !== undefined) expect(res.headers.get("etag"), `${label}: etag`).not.toBeNull();
  expect(rels(res.headers.get("link")), `${label}: Link rels`).toEqual(rels(recorded.headers.link));
  if (kind) {
    const theirs = Array.isArray(recorded.response) ? recorded.response : [recorded.response];
    const ours = Array.isArray(data) ? data : [data];
    if (sameCount) expect(ours.length, `${label}: item count`).toBe(theirs.length);
    expect(ours.length, `${label}: not empty`).toBeGreaterThan(0);
    for (const [i, item] of ours.entries()) {
      for (const field of READ_FIELDS[kind]) {
        const [a, b] = [at(theirs[Math.min(i, theirs.length - 1)], field), at(item, field)];
        if (a === undefined) continue;
        expect(b, `${label}: ${field} present`).not.toBeUndefined();
        if (a !== null && b !== null) expect(jsonType(b), `${label}: ${field} type`).toBe(jsonType(a));
      }
    }
  }
  report.push(`${label} (${res.status})`);
  return { res, data };
}

describe("replaying @octokit/fixtures exchanges that Fixloop makes", () => {
  it("get-repository", async () => {
    const [get] = load("get-repository");
    if (!get) throw new Error("empty scenario");
    const { data } = await replay(get, "/repos/octocat/todo-api", "repository");
    const missing = Object.keys(get.response as object).filter((k) => !(k in (data as object)));
    expect(
      missing.filter(
        (k) => !["temp_clone_token", "organization", "security_and_analysis", "custom_properties"].includes(k),
      ),
    ).toEqual([]);
  });

  it("paginate-issues: the same Link rels page by page, and issue field types", async () => {
    t.sandbox.control.addIssues(
      "octocat",
      "url-shortener",
      Array.from({ length: 10 }, (_, i) => ({ title: `Paged issue ${i + 1}` })),
    );
    const pages = load("paginate-issues");
    let next = "/repos/octocat/url-shortener/issues?per_page=3";
    for (const page of pages) {
      const { res } = await replay(page, next, "issue");
      const link = /<([^>]+)>; rel="next"/.exec(res.headers.get("link") ?? "")?.[1];
      if (link) next = new URL(link).pathname + new URL(link).search;
    }
    expect(pages).toHaveLength(5);
  });

  it("get-content: root directory listing and a raw file", async () => {
    const [dir, raw] = load("get-content");
    if (!dir || !raw) throw new Error("empty scenario");
    const { data: listing } = await replay(dir, "/repos/octocat/todo-api/contents/", "content", { sameCount: false });
    expect((listing as Array<{ name: string }>).map((e) => e.name)).toEqual(
      expect.arrayContaining(["README.md", "src", ".github"]),
    );
    const { data } = await replay(raw, "/repos/octocat/todo-api/contents/README.md", null);
    expect(String(data)).toMatch(/^# todo-api\n/);
  });

  it("labels: a new repository's default labels", async () => {
    const [list] = load("labels");
    if (!list) throw new Error("empty scenario");
    const recorded = list.response as unknown[];
    const { data } = await replay(list, "/repos/octocat/todo-api/labels", "label");
    expect((data as Array<{ name: string }>).map((l) => l.name)).toEqual(
      (recorded as Array<{ name: string }>).map((l) => l.name),
    );
  });

  it("git-refs: list, create, update, delete", async () => {
    const [list, create, update, listAgain, remove] = load("git-refs");
    if (!list || !create || !update || !listAgain || !remove) throw new Error("scenario changed");
    const base = "/repos/octocat/weather-cli/git";
    const { data: refs } = await replay(list, `${base}/refs/`, "ref");
    const main = (refs as Array<{ object: { sha: string } }>)[0]?.object.sha ?? "";
    await replay(create, `${base}/refs`, "ref", { body: { ref: "refs/heads/test", sha: main } });
    const gh = t.octokit("octocat", ["repo"]);
    const { data: commit } = await gh.rest.git.getCommit({ owner: "octocat", repo: "weather-cli", commit_sha: main });
    const { data: child } = await gh.rest.git.createCommit({
      owner: "octocat",
      repo: "weather-cli",
      message: "child",
      tree: commit.tree.sha,
      parents: [main],
    });
    await replay(update, `${base}/refs/heads/test`, "ref", { body: { sha: child.sha } });
    await replay(listAgain, `${base}/refs/`, "ref");
    await replay(remove, `${base}/refs/heads/test`, null);
  });

  it("errors: a 422 has the recorded Validation Failed shape", async () => {
    const [recorded] = load("errors");
    if (!recorded) throw new Error("empty scenario");
    const { data } = await replay(
      { ...recorded, method: "get", path: "(validation error)" },
      "/repos/octocat/todo-api/issues?state=bogus",
      "error",
    );
    const theirs = (recorded.response as { errors: object[] }).errors[0] ?? {};
    expect(Object.keys((data as { errors: object[] }).errors[0] ?? {}).sort()).toEqual(Object.keys(theirs).sort());
  });
});
