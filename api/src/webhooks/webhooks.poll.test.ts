import { describe, expect, it } from "vitest";
import { PR_POLL_SCHEDULER, SyncResult } from "@fixloop/contract";
import { pollPullRequests, schedulePullRequestPoll } from "@fixloop/worker";
import { errorOf } from "../../test/testing";
import { webhookStack } from "../../test/webhooks.testkit";

// No webhook configured: the pull-request sync reads the timeline itself. The timed poll reads one pull request per tick.
const t = await webhookStack({ webhook: false, workers: ["sync"], env: { PR_POLL_MAX_PER_TICK: "1" } });

async function sync() {
  const res = await t.stack.app.request("/api/prs/sync", { method: "POST", headers: t.octocat.headers });
  expect(res.status).toBe(200);
}

describe("polling a pull request's timeline where no webhook is configured", () => {
  it("records reviews, review comments, checks and the merge, reads again with If-None-Match, and adds nothing twice", async () => {
    const pr = await t.openFixloopPull();
    const hubot = t.gh("hubot");
    await hubot.request("POST /repos/{owner}/{repo}/pulls/{pull_number}/comments", {
      ...t.REPO,
      pull_number: pr.number,
      body: "Off by one here.",
      path: "src/paginate.ts",
      line: 1,
      commit_id: pr.sha,
    });
    await hubot.rest.pulls.createReview({
      ...t.REPO,
      pull_number: pr.number,
      event: "REQUEST_CHANGES",
      body: "See comment",
    });
    await t.gh("octocat").rest.checks.create({
      ...t.REPO,
      name: "lint",
      head_sha: pr.sha,
      status: "completed",
      conclusion: "success",
    });
    expect(await t.control.webhookDeliveries()).toEqual([]);
    await sync();
    const first = await t.timeline(pr.id);
    expect(first.map((e) => [e.kind, e.state])).toEqual([
      ["review_comment", null],
      ["review", "changes_requested"],
      ["check", "success"],
    ]);
    t.control.clearRequestLog();
    await sync();
    const lists = t.control.requestLog.filter((r) => /\/(reviews|comments|check-runs)(\?|$)/.test(r.path));
    expect(lists.map((r) => r.status)).toEqual([304, 304, 304]);
    expect(await t.timeline(pr.id)).toEqual(first);

    await t.gh("octocat").rest.pulls.merge({ ...t.REPO, pull_number: pr.number });
    await sync();
    expect((await t.timeline(pr.id)).map((e) => e.kind)).toEqual(["review_comment", "review", "check", "merged"]);
  });
});

/** One tick of the timed poll, as its job scheduler adds it. */
async function tick() {
  const events = t.stack.deps.queues.events("sync");
  await events.waitUntilReady();
  const job = await t.stack.deps.queues.sync.add(PR_POLL_SCHEDULER, { kind: "poll-pull-requests" });
  return SyncResult.parse(await job.waitUntilFinished(events, 20_000));
}

describe("the timed poll of open pull requests", () => {
  it("reads a comment no webhook brought, then costs only 304s, the least recently read first, and leaves out repositories with a recent webhook or a gone token", async () => {
    const pr = await t.openFixloopPull();
    await t.gh("hubot").request("POST /repos/{owner}/{repo}/pulls/{pull_number}/comments", {
      ...t.REPO,
      pull_number: pr.number,
      body: "Guard the empty page.",
      path: "src/paginate.ts",
      line: 1,
      commit_id: pr.sha,
    });
    expect(await t.control.webhookDeliveries()).toEqual([]);
    expect(await tick()).toMatchObject({ count: 1 });
    expect((await t.timeline(pr.id)).map((e) => [e.kind, e.actor, e.body])).toEqual([
      ["review_comment", "hubot", "Guard the empty page."],
    ]);

    t.control.clearRequestLog();
    expect(await tick()).toEqual({ count: 1, changed: 0, notModified: 1 });
    // The pull request, its reviews, its review comments and its head's check runs: all answered 304.
    expect(t.control.requestLog.map((r) => r.status)).toEqual([304, 304, 304, 304]);

    // Two open pull requests, one per tick: the one read longest ago first, then the other.
    const other = await t.openFixloopPull();
    const readPull = () =>
      t.control.requestLog
        .find((r) => /\/pulls\/\d+$/.test(r.path))
        ?.path.split("/")
        .at(-1);
    t.control.clearRequestLog();
    expect(await tick()).toMatchObject({ count: 1 });
    expect(readPull()).toBe(String(pr.number));
    t.control.clearRequestLog();
    expect(await tick()).toMatchObject({ count: 1 });
    expect(readPull()).toBe(String(other.number));

    // The owner's token is gone: nothing of theirs is read.
    const account = await t.stack.db
      .deleteFrom("github_accounts")
      .where("user_id", "=", t.octocat.user._id)
      .returningAll()
      .executeTakeFirstOrThrow();
    t.control.clearRequestLog();
    expect(await tick()).toEqual({ count: 0, changed: 0, notModified: 0 });
    expect(t.control.requestLog).toEqual([]);
    await t.stack.db.insertInto("github_accounts").values(account).execute();

    // A webhook arrives for the repository: the webhook brings the next comment, the poll leaves it alone.
    t.control.setWebhook(t.hook);
    await t.gh("hubot").request("POST /repos/{owner}/{repo}/pulls/{pull_number}/comments", {
      ...t.REPO,
      pull_number: pr.number,
      body: "And the last page.",
      path: "src/paginate.ts",
      line: 1,
      commit_id: pr.sha,
    });
    expect((await t.control.webhookDeliveries()).map((d) => d.status)).toEqual([200]);
    t.control.clearRequestLog();
    expect(await tick()).toEqual({ count: 0, changed: 0, notModified: 0 });
    expect(t.control.requestLog).toEqual([]);
    expect(await t.timeline(pr.id)).toHaveLength(2);
    t.control.setWebhook(null);
  });

  it("is declared as one job scheduler every PR_POLL_INTERVAL_SECONDS, and removed at 0", async () => {
    const q = t.stack.deps.queues.sync;
    const at = (seconds: number) =>
      schedulePullRequestPoll({ ...t.stack.ctx, env: { ...t.stack.ctx.env, PR_POLL_INTERVAL_SECONDS: seconds } });
    expect(await at(600)).toBe(true);
    expect(await at(600)).toBe(true);
    const schedulers = await q.getJobSchedulers();
    expect(schedulers.map((s) => [s.key, s.every])).toEqual([[PR_POLL_SCHEDULER, 600_000]]);
    expect(await at(0)).toBe(false);
    expect(await q.getJobSchedulers()).toEqual([]);
  });
});

describe("the user's pull-request sync", () => {
  it("skips a pull request GitHub refuses to show and reads the others; a rate limit still stops it", async () => {
    const refused = await t.openFixloopPull();
    const other = await t.openFixloopPull();
    const status = async (id: string) =>
      (await t.stack.db.selectFrom("pull_requests").select("status").where("id", "=", id).executeTakeFirstOrThrow())
        .status;
    await t.gh("octocat").rest.pulls.update({ ...t.REPO, pull_number: other.number, state: "closed" });
    // The organization's OAuth App access restrictions refuse this token the one pull request.
    t.control.failNext({ path: new RegExp(`/pulls/${refused.number}$`), status: 403, kind: "restricted" });
    t.control.clearRequestLog();
    await sync();
    const reads = (n: number) =>
      t.control.requestLog.filter((r) => r.path.endsWith(`/pulls/${n}`)).map((r) => r.status);
    expect(reads(refused.number)).toEqual([403]);
    expect(reads(other.number)).toEqual([200]);
    expect(await status(other.id)).toBe("closed");
    expect(await status(refused.id)).toBe("open");

    // A rate limit is no refusal of one pull request: the sync stops and says so.
    t.control.failNext({ path: /\/pulls\/\d+$/, status: 403, kind: "primary", retryAfter: 3600 });
    t.control.clearRequestLog();
    const res = await t.stack.app.request("/api/prs/sync", { method: "POST", headers: t.octocat.headers });
    expect(res.status).toBe(429);
    expect((await errorOf(res)).code).toBe("github.rate_limited");
    expect(t.control.requestLog.filter((r) => /\/pulls\/\d+$/.test(r.path)).map((r) => r.status)).toEqual([403]);
  });
});

describe("the timed poll when GitHub refuses one pull request", () => {
  it("reads the user's others; a rate limit still holds the user's rest back until a later tick", async () => {
    // Earlier cases delivered a webhook for the repository, which leaves it to webhooks for an hour.
    await t.stack.db.deleteFrom("webhook_events").execute();
    const status = async (id: string) =>
      (await t.stack.db.selectFrom("pull_requests").select("status").where("id", "=", id).executeTakeFirstOrThrow())
        .status;
    const reads = (n: number) =>
      t.control.requestLog.filter((r) => r.path.endsWith(`/pulls/${n}`)).map((r) => r.status);
    /** The poll's order, the one read longest ago first: `first`, then `second`, then the rest. */
    const order = async (first: string, second: string) => {
      await t.stack.db.updateTable("pull_requests").set({ synced_at: new Date() }).execute();
      await t.stack.db
        .updateTable("pull_requests")
        .set({ synced_at: new Date("2026-01-01") })
        .where("id", "=", first)
        .execute();
      await t.stack.db
        .updateTable("pull_requests")
        .set({ synced_at: new Date("2026-01-02") })
        .where("id", "=", second)
        .execute();
    };
    const poll = () =>
      pollPullRequests(
        { ...t.stack.ctx, env: { ...t.stack.ctx.env, PR_POLL_MAX_PER_TICK: 2 } },
        new AbortController().signal,
      );

    const refused = await t.openFixloopPull();
    const other = await t.openFixloopPull();
    await t.gh("octocat").rest.pulls.update({ ...t.REPO, pull_number: other.number, state: "closed" });
    await order(refused.id, other.id);
    // The organization's OAuth App access restrictions refuse this token the one pull request.
    t.control.failNext({ path: new RegExp(`/pulls/${refused.number}$`), status: 403, kind: "restricted" });
    t.control.clearRequestLog();
    expect(await poll()).toMatchObject({ count: 2 });
    expect(reads(refused.number)).toEqual([403]);
    expect(reads(other.number)).toEqual([200]);
    expect(await status(other.id)).toBe("closed");
    expect(await status(refused.id)).toBe("open");

    // A rate limit is the token's, not the pull request's: the user's next one waits for a later tick.
    const third = await t.openFixloopPull();
    await t.gh("octocat").rest.pulls.update({ ...t.REPO, pull_number: third.number, state: "closed" });
    await order(refused.id, third.id);
    t.control.failNext({
      path: new RegExp(`/pulls/${refused.number}$`),
      status: 403,
      kind: "primary",
      retryAfter: 3600,
    });
    t.control.clearRequestLog();
    expect(await poll()).toMatchObject({ count: 2 });
    expect(reads(refused.number)).toEqual([403]);
    expect(reads(third.number)).toEqual([]);
    expect(await status(third.id)).toBe("open");
  });
});

/**
 * Creates on the stand-in as `login`, one POST per body. Plain HTTP: the GitHub client paces
 * content-creating requests at one a second, which would make hundreds of them take minutes.
 */
async function createMany(login: string, path: string, bodies: object[]) {
  const token = t.control.issueToken(login, ["public_repo"]);
  for (const body of bodies) {
    const res = await fetch(`${t.stack.github.url}${path}`, {
      method: "POST",
      headers: { authorization: `token ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(res.status).toBeLessThan(300);
  }
}

describe("polling a long timeline", () => {
  it("reads every page of more than 100 reviews, review comments and check runs", async () => {
    const pr = await t.openFixloopPull();
    const n = 130;
    const each = (f: (i: number) => object) => Array.from({ length: n }, (_, i) => f(i));
    const at = `/repos/octocat/todo-api/pulls/${pr.number}`;
    await createMany(
      "hubot",
      `${at}/reviews`,
      each((i) => ({ event: "COMMENT", body: `review ${i}` })),
    );
    await createMany(
      "hubot",
      `${at}/comments`,
      each((i) => ({ body: `comment ${i}`, path: "src/paginate.ts", line: 1, commit_id: pr.sha })),
    );
    await createMany(
      "octocat",
      "/repos/octocat/todo-api/check-runs",
      each((i) => ({ name: `check ${i}`, head_sha: pr.sha, status: "completed", conclusion: "success" })),
    );
    await sync();
    const kinds = (await t.timeline(pr.id)).map((e) => e.kind);
    expect(["review", "review_comment", "check"].map((k) => kinds.filter((x) => x === k).length)).toEqual([n, n, n]);
    // A list longer than one page has no ETag standing for all of it: the next sync reads every page again.
    t.control.clearRequestLog();
    await sync();
    const ours = new RegExp(`/(pulls/${pr.number}/(reviews|comments)|commits/${pr.sha}/check-runs)(\\?|$)`);
    const lists = t.control.requestLog.filter((r) => ours.test(r.path));
    expect(lists.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it("stops at 10 pages of a list (1,000 items) however long it is", async () => {
    const pr = await t.openFixloopPull();
    const at = `/repos/octocat/todo-api/pulls/${pr.number}/comments`;
    const body = (i: number) => ({ body: `comment ${i}`, path: "src/paginate.ts", line: 1, commit_id: pr.sha });
    await createMany(
      "hubot",
      at,
      Array.from({ length: 1005 }, (_, i) => body(i)),
    );
    t.control.clearRequestLog();
    await sync();
    const pages = t.control.requestLog.filter((r) => new RegExp(`/pulls/${pr.number}/comments(\\?|$)`).test(r.path));
    expect(pages.map((r) => r.status)).toEqual(Array(10).fill(200));
    const recorded = await t.stack.db
      .selectFrom("pull_request_events")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("pull_request_id", "=", pr.id)
      .where("kind", "=", "review_comment")
      .executeTakeFirstOrThrow();
    expect(Number(recorded.n)).toBe(1000);
  });
});

// Last in this file: the delivery below makes the repository one with a recent webhook, which the timed poll leaves alone.
describe("a state read by the sync, then an older webhook", () => {
  it("keeps the state the sync read when a closed delivered late is older than it", async () => {
    const pr = await t.openFixloopPull();
    const update = (state: "open" | "closed") =>
      t.gh("octocat").rest.pulls.update({ ...t.REPO, pull_number: pr.number, state });
    const status = async () =>
      (await t.stack.db.selectFrom("pull_requests").select("status").where("id", "=", pr.id).executeTakeFirstOrThrow())
        .status;
    const closed = (await update("closed")).data;
    await sync();
    expect(await status()).toBe("closed");
    // GitHub's timestamps are whole seconds: the reopen in a second of its own is newer.
    await new Promise((resolve) => setTimeout(resolve, 1020 - (Date.now() % 1000)));
    await update("open");
    await sync();
    expect(await status()).toBe("open");
    const late = await t.post("pull_request", {
      action: "closed",
      repository: t.repository,
      sender: { login: "octocat" },
      pull_request: {
        number: pr.number,
        merged: false,
        closed_at: closed.closed_at,
        updated_at: closed.updated_at,
        html_url: closed.html_url,
      },
    });
    expect(await late.json()).toEqual({ status: "ignored", reason: "older_than_stored_state" });
    expect(await status()).toBe("open");
  });
});
