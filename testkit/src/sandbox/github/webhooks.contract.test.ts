import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Octokit } from "@octokit/rest";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../paths";
import { startTestSandbox, type TestSandbox } from "../../../test/github-sandbox";
import type { WebhookDelivery } from "./index";
import { monalisasOrganization } from "./orgs.contract.fixtures";

const SCHEMA_FILE = path.join(ROOT, "node_modules/@octokit/webhooks-schemas/schema.json");
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const SECRET = "contract-secret";

let t: TestSandbox;
let receiver: http.Server;
const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
const ajv = addFormats(new Ajv({ strict: false, allErrors: true, logger: false }));

/** Opens a pull request from a new branch of `o` (one changed file) and returns its number and head. */
async function openPull(
  gh: Octokit,
  branch: string,
  o = { owner: "octocat", repo: "todo-api" },
  file = "NOTES.md",
): Promise<{ number: number; sha: string }> {
  const main = await gh.rest.git.getRef({ ...o, ref: "heads/main" });
  const parent = await gh.rest.git.getCommit({ ...o, commit_sha: main.data.object.sha });
  const tree = await gh.rest.git.createTree({
    ...o,
    base_tree: parent.data.tree.sha,
    tree: [{ path: file, mode: "100644", type: "blob", content: `notes ${branch}\n` }],
  });
  const commit = await gh.rest.git.createCommit({
    ...o,
    message: "Notes",
    tree: tree.data.sha,
    parents: [parent.data.sha],
  });
  await gh.rest.git.createRef({ ...o, ref: `refs/heads/${branch}`, sha: commit.data.sha });
  const pr = await gh.rest.pulls.create({ ...o, title: "Notes", head: branch, base: "main" });
  return { number: pr.data.number, sha: commit.data.sha };
}

/** Another commit on top of `branch` (a REST ref update, as Fixloop pushes). */
async function pushOnto(gh: Octokit, branch: string): Promise<void> {
  const o = { owner: "octocat", repo: "todo-api" };
  const head = await gh.rest.git.getRef({ ...o, ref: `heads/${branch}` });
  const parent = await gh.rest.git.getCommit({ ...o, commit_sha: head.data.object.sha });
  const tree = await gh.rest.git.createTree({
    ...o,
    base_tree: parent.data.tree.sha,
    tree: [{ path: "MORE.md", mode: "100644", type: "blob", content: "more\n" }],
  });
  const commit = await gh.rest.git.createCommit({
    ...o,
    message: "More",
    tree: tree.data.sha,
    parents: [parent.data.sha],
  });
  await gh.rest.git.updateRef({ ...o, ref: `heads/${branch}`, sha: commit.data.sha });
}

beforeAll(async () => {
  ajv.addSchema(JSON.parse(fs.readFileSync(SCHEMA_FILE, "utf8")) as object, "webhooks");
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  t = await startTestSandbox();
  const { port } = receiver.address() as AddressInfo;
  t.sandbox.control.setWebhook({ url: `http://127.0.0.1:${port}/hook`, secret: SECRET });
});

afterAll(async () => {
  await t.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

function validate(d: WebhookDelivery): string[] {
  const payload = JSON.parse(d.body) as { action?: string };
  const name = payload.action ? `${d.event}$${payload.action}` : `${d.event}$event`;
  const check = ajv.getSchema(`webhooks#/definitions/${name}`);
  if (!check) return [`no published schema ${name}`];
  if (check(payload)) return [];
  return (check.errors ?? [])
    .slice(0, 8)
    .map((e) => `${name} ${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}

describe("the GitHub stand-in's webhooks", () => {
  it("delivers a review comment, each review state, a check run, a push with its synchronize, a close, a reopen and a merge as GitHub's published webhook schemas describe them, signed", async () => {
    const octocat = t.octokit("octocat", ["repo"]);
    const hubot = t.octokit("hubot", ["public_repo"]);
    const o = { owner: "octocat", repo: "todo-api" };
    const first = await openPull(octocat, "hook-contract-1");
    const comment = await hubot.request("POST /repos/{owner}/{repo}/pulls/{pull_number}/comments", {
      ...o,
      pull_number: first.number,
      body: "Please handle the empty page.",
      path: "NOTES.md",
      line: 1,
      commit_id: first.sha,
    });
    // A reply on the thread (as Fixloop posts after pushing a revision) is a review comment with in_reply_to_id.
    await octocat.rest.pulls.createReplyForReviewComment({
      ...o,
      pull_number: first.number,
      comment_id: Number(comment.data.id),
      body: "Addressed in abc1234.",
    });
    for (const event of ["APPROVE", "REQUEST_CHANGES", "COMMENT"] as const)
      await hubot.rest.pulls.createReview({ ...o, pull_number: first.number, event, body: `review ${event}` });
    await octocat.rest.checks.create({
      ...o,
      name: "test",
      head_sha: first.sha,
      status: "completed",
      conclusion: "failure",
      output: { title: "1 failing", summary: "paginate skips an item" },
    });
    await octocat.rest.pulls.merge({ ...o, pull_number: first.number });
    const second = await openPull(octocat, "hook-contract-2");
    await pushOnto(octocat, "hook-contract-2");
    await t.sandbox.control.webhookDeliveries();
    await octocat.rest.pulls.update({ ...o, pull_number: second.number, state: "closed" });
    await octocat.rest.pulls.update({ ...o, pull_number: second.number, state: "open" });

    const deliveries = await t.sandbox.control.webhookDeliveries();
    expect(deliveries.map((d) => d.event)).toEqual([
      "pull_request_review_comment",
      "pull_request_review_comment",
      "pull_request_review",
      "pull_request_review",
      "pull_request_review",
      "check_run",
      "pull_request",
      "push",
      "pull_request",
      "pull_request",
      "pull_request",
    ]);
    expect(deliveries.flatMap(validate)).toEqual([]);
    const replied = JSON.parse(deliveries[1]?.body ?? "{}") as { comment: { in_reply_to_id?: number } };
    expect(replied.comment.in_reply_to_id).toBe(Number(comment.data.id));
    const reviews = deliveries.filter((d) => d.event === "pull_request_review").map((d) => JSON.parse(d.body));
    expect(reviews.map((r: { review: { state: string } }) => r.review.state)).toEqual([
      "approved",
      "changes_requested",
      "commented",
    ]);
    const closes = deliveries
      .filter((d) => d.event === "pull_request")
      .map((d) => JSON.parse(d.body))
      .filter((p: { action: string }) => p.action === "closed");
    const sync = deliveries.filter((d) => d.event === "pull_request").map((d) => JSON.parse(d.body))[1];
    expect(sync).toMatchObject({ action: "synchronize", number: second.number });
    expect(closes.map((p: { pull_request: { merged: boolean } }) => p.pull_request.merged)).toEqual([true, false]);
    const reopened = JSON.parse(deliveries.at(-1)?.body ?? "{}") as { action: string; pull_request: { state: string } };
    expect([reopened.action, reopened.pull_request.state]).toEqual(["reopened", "open"]);
    expect(received).toHaveLength(deliveries.length);
    for (const r of received) {
      const expected = `sha256=${crypto.createHmac("sha256", SECRET).update(r.body).digest("hex")}`;
      expect(r.headers["x-hub-signature-256"]).toBe(expected);
      expect(r.headers["user-agent"]).toMatch(/^GitHub-Hookshot\//);
      expect(r.headers["x-github-delivery"]).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.headers["x-github-event"]).toBeTruthy();
    }
    expect(new Set(received.map((r) => r.headers["x-github-delivery"])).size).toBe(received.length);
  });
  it("delivers issues.labeled for each label added, as the published schema describes it", async () => {
    const octocat = t.octokit("octocat", ["repo"]);
    const before = (await t.sandbox.control.webhookDeliveries()).length;
    const [n = 0] = t.sandbox.control.addIssues("octocat", "todo-api", [{ title: "Crash on an empty list" }]);
    await octocat.rest.issues.addLabels({ owner: "octocat", repo: "todo-api", issue_number: n, labels: ["fixloop"] });
    // Already there: no second delivery.
    await octocat.rest.issues.addLabels({ owner: "octocat", repo: "todo-api", issue_number: n, labels: ["fixloop"] });
    const labeled = (await t.sandbox.control.webhookDeliveries()).slice(before);
    expect(labeled.map((d) => d.event)).toEqual(["issues"]);
    expect(labeled.flatMap(validate)).toEqual([]);
    expect(JSON.parse(labeled[0]?.body ?? "{}")).toMatchObject({
      action: "labeled",
      issue: { number: n },
      label: { name: "fixloop" },
      sender: { login: "octocat" },
    });
  });
  it("delivers the same signed issues.labeled when a label is added with the issue page's label control", async () => {
    const control = t.sandbox.control;
    const [n = 0] = control.addIssues("octocat", "todo-api", [{ title: "Totals ignore archived todos" }]);
    const page = `${t.sandbox.url}/octocat/todo-api/issues/${n}`;
    const form = await (await fetch(page)).text();
    expect(form).toContain('aria-label="Add a label"');
    expect(form).toContain("None yet");
    const before = (await control.webhookDeliveries()).length;
    const receivedBefore = received.length;
    const add = (user: string, label: string) =>
      fetch(`${page}/sandbox/label`, {
        method: "POST",
        body: new URLSearchParams({ user, label }),
        redirect: "manual",
      });
    const res = await add("octocat", "fixloop");
    expect([res.status, res.headers.get("location")]).toEqual([303, `/octocat/todo-api/issues/${n}`]);
    // Already there, an unknown user, or no label: nothing more is sent.
    expect((await add("octocat", "Fixloop")).status).toBe(303);
    expect((await add("mallory", "fixloop")).status).toBe(422);
    expect((await add("octocat", "  ")).status).toBe(422);
    const labeled = (await control.webhookDeliveries()).slice(before);
    expect(labeled.map((d) => d.event)).toEqual(["issues"]);
    expect(labeled.flatMap(validate)).toEqual([]);
    expect(JSON.parse(labeled[0]?.body ?? "{}")).toMatchObject({
      action: "labeled",
      issue: { number: n, labels: [{ name: "fixloop" }] },
      label: { name: "fixloop" },
      sender: { login: "octocat" },
    });
    const delivered = received.slice(receivedBefore);
    expect(delivered).toHaveLength(1);
    const expected = `sha256=${crypto
      .createHmac("sha256", SECRET)
      .update(delivered[0]?.body ?? "")
      .digest("hex")}`;
    expect(delivered[0]?.headers["x-hub-signature-256"]).toBe(expected);
    // The page shows the label it now has.
    expect(await (await fetch(page)).text()).toMatch(
      /<ul class="labels" aria-label="Labels"><li><span[^>]*>fixloop<\/span>/,
    );
  });
  it("delivers repository.renamed and repository.transferred as the published schemas describe them, the repository keeping its id and git data", async () => {
    const control = t.sandbox.control;
    const hubot = t.octokit("hubot", ["public_repo"]);
    const before = (await control.webhookDeliveries()).length;
    const original = await hubot.rest.repos.get({ owner: "octocat", repo: "weather-cli" });
    await control.renameRepository("octocat", "weather-cli", "weather");
    await control.transferRepository("octocat", "weather", "monalisa");
    const sent = (await control.webhookDeliveries()).slice(before);
    expect(sent.map((d) => d.event)).toEqual(["repository", "repository"]);
    expect(sent.flatMap(validate)).toEqual([]);
    expect(sent.map((d) => JSON.parse(d.body) as unknown)).toMatchObject([
      {
        action: "renamed",
        changes: { repository: { name: { from: "weather-cli" } } },
        repository: { id: original.data.id, full_name: "octocat/weather" },
        sender: { login: "octocat" },
      },
      {
        action: "transferred",
        changes: { owner: { from: { user: { login: "octocat" } } } },
        repository: { id: original.data.id, full_name: "monalisa/weather", owner: { login: "monalisa" } },
      },
    ]);
    const moved = await hubot.rest.repos.get({ owner: "monalisa", repo: "weather" });
    expect([moved.data.id, moved.data.full_name]).toEqual([original.data.id, "monalisa/weather"]);
    const main = await hubot.rest.git.getRef({ owner: "monalisa", repo: "weather", ref: "heads/main" });
    expect(main.data.object.sha).toMatch(/^[0-9a-f]{40}$/);
    // The old name redirects to the repository (followed by the client), as on GitHub.
    const old = await hubot.rest.repos.get({ owner: "octocat", repo: "weather-cli" });
    expect([old.data.id, old.data.full_name]).toEqual([original.data.id, "monalisa/weather"]);
  });
  it("delivers repository.transferred to an organisation as the published schema describes it; its members read it", async () => {
    const control = t.sandbox.control;
    control.createOrganization("tools", { defaultPermission: "read" });
    control.addOrgMember("tools", "monalisa");
    const before = (await control.webhookDeliveries()).length;
    await control.transferRepository("hubot", "markdown-lint", "tools");
    const sent = (await control.webhookDeliveries()).slice(before);
    expect(sent.flatMap(validate)).toEqual([]);
    expect(sent.map((d) => JSON.parse(d.body) as unknown)).toMatchObject([
      {
        action: "transferred",
        changes: { owner: { from: { user: { login: "hubot" } } } },
        repository: { full_name: "tools/markdown-lint", owner: { login: "tools", type: "Organization" } },
      },
    ]);
    const read = await t.octokit("monalisa", ["public_repo"]).rest.repos.get({ owner: "tools", repo: "markdown-lint" });
    expect(read.data.permissions).toMatchObject({ pull: true, push: false });
  });
  it("merges an organisation's pull request as a user: the owner by default, or the member told; the delivery names the organisation", async () => {
    const control = t.sandbox.control;
    await monalisasOrganization(control, "acme", { members: ["hubot"], repos: ["widgets"] });
    const o = { owner: "acme", repo: "widgets" };
    const monalisa = t.octokit("monalisa", ["repo"]);
    const first = await openPull(monalisa, "org-merge-1", o);
    const second = await openPull(monalisa, "org-merge-2", o, "OTHER.md");
    // hubot only reads (the base permission): GitHub would not let it merge.
    await expect(control.mergePull("acme", "widgets", second.number, { by: "hubot" })).rejects.toThrow(
      /hubot lacks push/,
    );
    await expect(control.mergePull("acme", "widgets", second.number, { by: "acme" })).rejects.toThrow(/not a user/);
    const before = (await control.webhookDeliveries()).length;
    await control.mergePull("acme", "widgets", first.number);
    control.createTeam("acme", "builders", ["hubot"]);
    control.addTeamRepository("acme", "builders", "widgets", "push");
    await control.mergePull("acme", "widgets", second.number, { by: "hubot" });
    const sent = (await control.webhookDeliveries()).slice(before);
    expect(sent.flatMap(validate)).toEqual([]);
    const organization = { login: "acme", url: `${t.sandbox.url}/orgs/acme` };
    expect(sent.map((d) => JSON.parse(d.body) as unknown)).toMatchObject([
      {
        action: "closed",
        number: first.number,
        pull_request: { merged: true, merged_by: { login: "monalisa" } },
        organization,
        sender: { login: "monalisa" },
      },
      {
        action: "closed",
        number: second.number,
        pull_request: { merged: true, merged_by: { login: "hubot" } },
        organization,
        sender: { login: "hubot" },
      },
    ]);
    const merged = await monalisa.rest.pulls.get({ ...o, pull_number: first.number });
    expect([merged.data.merged, merged.data.merged_by?.login]).toEqual([true, "monalisa"]);
  });
  it("an organisation's issues are deleted and transferred by its owner: the deliveries name that user and the organisation", async () => {
    const control = t.sandbox.control;
    await monalisasOrganization(control, "acme-issues", { repos: ["tracker", "archive"] });
    const [deleted = 0, moved = 0] = control.addIssues("acme-issues", "tracker", [
      { title: "Spam", user: "hubot" },
      { title: "Belongs in the archive", user: "hubot" },
    ]);
    const before = (await control.webhookDeliveries()).length;
    control.deleteIssue("acme-issues", "tracker", deleted);
    control.transferIssue("acme-issues", "tracker", moved, { owner: "acme-issues", repo: "archive" });
    const sent = (await control.webhookDeliveries()).slice(before);
    expect(sent.flatMap(validate)).toEqual([]);
    const organization = { login: "acme-issues" };
    expect(sent.map((d) => JSON.parse(d.body) as unknown)).toMatchObject([
      { action: "deleted", organization, sender: { login: "monalisa" } },
      { action: "transferred", organization, sender: { login: "monalisa" } },
    ]);
  });
  it("delivers issues.deleted and issues.transferred as the published schemas describe them", async () => {
    const before = (await t.sandbox.control.webhookDeliveries()).length;
    const [deleted = 0, moved = 0] = t.sandbox.control.addIssues("octocat", "todo-api", [
      { title: "Spam" },
      { title: "Belongs in the URL shortener", labels: ["bug"] },
    ]);
    t.sandbox.control.deleteIssue("octocat", "todo-api", deleted);
    const n = t.sandbox.control.transferIssue("octocat", "todo-api", moved, {
      owner: "octocat",
      repo: "url-shortener",
    });
    const sent = (await t.sandbox.control.webhookDeliveries()).slice(before);
    expect(sent.map((d) => d.event)).toEqual(["issues", "issues"]);
    expect(sent.flatMap(validate)).toEqual([]);
    expect(JSON.parse(sent[0]?.body ?? "{}")).toMatchObject({
      action: "deleted",
      issue: { number: deleted },
      repository: { full_name: "octocat/todo-api" },
    });
    const transferred = JSON.parse(sent[1]?.body ?? "{}") as {
      issue: { id: number };
      changes: { new_issue: { id: number } };
    };
    // The issue in the new repository is a new one (its own id), as on GitHub.
    expect(transferred.changes.new_issue.id).not.toBe(transferred.issue.id);
    expect(transferred).toMatchObject({
      action: "transferred",
      issue: { number: moved },
      repository: { full_name: "octocat/todo-api" },
      changes: {
        new_issue: { number: n, html_url: expect.stringMatching(new RegExp(`/octocat/url-shortener/issues/${n}$`)) },
        new_repository: { full_name: "octocat/url-shortener" },
      },
    });
  });
});
