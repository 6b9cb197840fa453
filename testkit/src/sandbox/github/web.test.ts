import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Octokit } from "@octokit/rest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../../eventually";
import { startGithubSandbox, type GithubSandbox } from "./index";

let gh: GithubSandbox;
let token: string;
beforeAll(async () => {
  gh = await startGithubSandbox({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), "gh-web-")), selfLinks: true });
  token = gh.control.issueToken("octocat", ["public_repo"]);
});
afterAll(() => gh.stop());

const api = async <T>(p: string): Promise<T> =>
  (await (await fetch(`${gh.url}${p}`, { headers: { authorization: `Bearer ${token}` } })).json()) as T;

async function html(url: string): Promise<string> {
  expect(url.startsWith(`${gh.url}/`), url).toBe(true);
  const res = await fetch(url);
  expect(res.status, url).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/html");
  return res.text();
}

describe("the stand-in's links in sandbox mode", () => {
  it("points avatar_url at a generated image it serves", async () => {
    const user = await api<{ avatar_url: string; html_url: string }>("/users/octocat");
    expect(user.avatar_url.startsWith(`${gh.url}/avatars/u/`)).toBe(true);
    const res = await fetch(user.avatar_url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(await res.text()).toContain("<svg");
    expect(await html(user.html_url)).toContain("todo-api");
  });

  it("serves a readable page for a repository and for an issue", async () => {
    const repo = await api<{ html_url: string }>("/repos/octocat/todo-api");
    expect(await html(repo.html_url)).toContain("Pagination skips a todo at every page boundary");
    const issues = await api<
      Array<{ html_url: string; title: string; body: string; state: string; pull_request?: unknown }>
    >("/repos/octocat/todo-api/issues?state=open");
    const issue = issues.find((i) => !i.pull_request && i.body);
    expect(issue).toBeDefined();
    const page = await html(issue?.html_url ?? "");
    expect(page).toContain(issue?.title.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;"));
    expect(page).toContain(">open</span>");
  });

  it("serves a pull request page with its state and diff", async () => {
    const gh2 = new Octokit({ auth: token, baseUrl: gh.url, log: { debug() {}, info() {}, warn() {}, error() {} } });
    const repo = { owner: "octocat", repo: "todo-api" };
    const main = await gh2.rest.git.getRef({ ...repo, ref: "heads/main" });
    const parent = await gh2.rest.git.getCommit({ ...repo, commit_sha: main.data.object.sha });
    const tree = await gh2.rest.git.createTree({
      ...repo,
      base_tree: parent.data.tree.sha,
      tree: [{ path: "NOTES.md", mode: "100644", type: "blob", content: "web page diff\n" }],
    });
    const commit = await gh2.rest.git.createCommit({
      ...repo,
      message: "Notes",
      tree: tree.data.sha,
      parents: [parent.data.sha],
    });
    await gh2.rest.git.createRef({ ...repo, ref: "refs/heads/notes", sha: commit.data.sha });
    const { data: pull } = await gh2.rest.pulls.create({
      ...repo,
      head: "notes",
      base: "main",
      title: "Add notes",
      body: "Adds NOTES.md",
    });
    const page = await html(pull?.html_url ?? "");
    expect(page).toContain("Add notes");
    expect(page).toContain("diff --git a/NOTES.md b/NOTES.md");
    expect(page).toContain("+web page diff");
    expect(page).toMatch(/class="state (open|closed)"/);
  });

  it("lets a sandbox walker review the pull request: a review comment and a failing check, as from GitHub", async () => {
    const received: string[] = [];
    const hook = http.createServer((req, res) => {
      received.push(String(req.headers["x-github-event"]));
      req.resume().on("end", () => res.end());
    });
    await new Promise<void>((r) => hook.listen(0, "127.0.0.1", r));
    gh.control.setWebhook({ url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/`, secret: "s" });
    try {
      const pull = gh.control.listPulls("octocat", "todo-api").find((p) => p.title === "Add notes");
      expect(pull).toBeDefined();
      const pageUrl = `${gh.url}/octocat/todo-api/pull/${pull?.number}`;
      const before = await html(pageUrl);
      expect(before).toContain("No review comments yet.");
      expect(before).toContain('<option value="NOTES.md">');
      const post = (action: string, form: Record<string, string>) =>
        fetch(`${pageUrl}/sandbox/${action}`, { method: "POST", body: new URLSearchParams(form), redirect: "manual" });
      const comment = await post("review-comment", {
        user: "monalisa",
        path: "NOTES.md",
        line: "1",
        body: "Say <why>",
      });
      expect(comment.status).toBe(303);
      expect(comment.headers.get("location")).toBe(`/octocat/todo-api/pull/${pull?.number}`);
      const check = await post("check-run", { name: "ci", conclusion: "failure", summary: "1 test failed" });
      expect(check.status).toBe(303);
      expect((await post("check-run", { name: "ci", conclusion: "bogus" })).status).toBe(422);
      expect((await post("review-comment", { user: "nobody", path: "NOTES.md", line: "1", body: "x" })).status).toBe(
        422,
      );
      const after = await html(pageUrl);
      expect(after).toContain("Say &lt;why&gt;");
      expect(after).toContain("ci: <b>failure</b> 1 test failed");
      const comments = await api<Array<{ body: string; path: string; line: number; user: { login: string } }>>(
        `/repos/octocat/todo-api/pulls/${pull?.number}/comments`,
      );
      expect(comments.map((c) => [c.user.login, c.path, c.line, c.body])).toEqual([
        ["monalisa", "NOTES.md", 1, "Say <why>"],
      ]);
      const checks = await api<{ check_runs: Array<{ name: string; conclusion: string }> }>(
        `/repos/octocat/todo-api/commits/${pull?.head.sha}/check-runs`,
      );
      expect(checks.check_runs.map((c) => [c.name, c.conclusion])).toEqual([["ci", "failure"]]);
      await eventually(() => expect(received.slice().sort()).toEqual(["check_run", "pull_request_review_comment"]), {
        timeout: 1_000,
      });
    } finally {
      gh.control.setWebhook(null);
      hook.close();
    }
  });

  it("answers 404 for a page that does not exist and leaves REST routes alone", async () => {
    expect((await fetch(`${gh.url}/octocat/no-such-repo`)).status).toBe(404);
    expect(
      (await fetch(`${gh.url}/user`, { headers: { authorization: `Bearer ${token}` } })).headers.get("content-type"),
    ).toContain("application/json");
  });
});
