import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestSandbox, type TestSandbox } from "@fixloop/testkit";
import { createGithubClient, GITHUB_WRITE_BURST } from "./github.client";

let t: TestSandbox;
beforeAll(async () => {
  t = await startTestSandbox();
});
afterAll(() => t.stop());

function loggedClient() {
  const lines: Array<{ level: number; msg: string }> = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)) as { level: number; msg: string });
      done();
    },
  });
  const logger = pino({ level: "debug" }, sink);
  const token = t.sandbox.control.issueToken("octocat", ["public_repo"]);
  return { lines, gh: createGithubClient({ baseUrl: t.sandbox.url, token, logger }) };
}

const ERROR = 50;

describe("the GitHub client's log", () => {
  it("keeps ordinary 404 and 304 replies out of the error level", async () => {
    const { lines, gh } = loggedClient();
    await expect(gh.rest.repos.get({ owner: "octocat", repo: "no-such-repo" })).rejects.toMatchObject({ status: 404 });
    const first = await gh.rest.issues.listForRepo({ owner: "octocat", repo: "todo-api" });
    const etag = first.headers.etag ?? "";
    expect(etag).not.toBe("");
    await expect(
      gh.rest.issues.listForRepo({ owner: "octocat", repo: "todo-api", headers: { "if-none-match": etag } }),
    ).rejects.toMatchObject({ status: 304 });
    expect(lines.filter((l) => l.level >= ERROR)).toEqual([]);
    expect(lines.filter((l) => / - (404|304) with id /.test(l.msg))).toHaveLength(2);
  });

  it("logs the expected 422 of a branch created twice at info, not error", async () => {
    const { lines, gh } = loggedClient();
    const repo = { owner: "octocat", repo: "todo-api" };
    const main = await gh.rest.git.getRef({ ...repo, ref: "heads/main" });
    const ref = { ...repo, ref: `refs/heads/race-${Date.now()}`, sha: main.data.object.sha };
    await gh.rest.git.createRef(ref);
    await expect(gh.rest.git.createRef(ref)).rejects.toMatchObject({ status: 422 });
    expect(lines.filter((l) => l.level >= ERROR)).toEqual([]);
    expect(lines.filter((l) => / - 422 with id /.test(l.msg)).map((l) => l.level)).toEqual([30]);
  });

  it("still logs a server error at the error level", async () => {
    const { lines, gh } = loggedClient();
    t.sandbox.control.failNext({ path: /\/repos\/octocat\/todo-api$/, status: 500, kind: "primary", times: 5 });
    await expect(gh.rest.repos.get({ owner: "octocat", repo: "todo-api" })).rejects.toMatchObject({ status: 500 });
    expect(lines.some((l) => l.level >= ERROR && / - 500 with id /.test(l.msg))).toBe(true);
  });
});

describe("the GitHub client's pace for content-creating requests", () => {
  const REPO = { octocat: "todo-api", hubot: "markdown-lint" } as const;
  const blob = (gh: ReturnType<typeof createGithubClient>, i: number, owner: keyof typeof REPO = "octocat") =>
    gh.rest.git.createBlob({ owner, repo: REPO[owner], content: `blob ${i} ${Math.random()}` });
  const client = (login: string) =>
    createGithubClient({ baseUrl: t.sandbox.url, token: t.sandbox.control.issueToken(login, ["public_repo"]) });

  it("sends the few writes of one pull request without a second between each", async () => {
    const gh = client("octocat");
    const started = Date.now();
    for (let i = 0; i < 5; i++) await blob(gh, i);
    // The plugin's default spacing made these five take four seconds.
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("falls back to one write a second once the burst is spent, per credential", async () => {
    const busy = client("octocat");
    const other = client("hubot");
    const started = Date.now();
    for (let i = 0; i < GITHUB_WRITE_BURST + 2; i++) await blob(busy, i);
    // Two writes past the burst waited for the lane to refill at one a second.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    // Another user's writes do not queue behind them.
    const otherStarted = Date.now();
    await blob(other, 0, "hubot");
    expect(Date.now() - otherStarted).toBeLessThan(1000);
  });
});
