import { describe, expect, it } from "vitest";
import { webhookStack } from "../../test/webhooks.testkit";

// No webhook configured: the pull-request sync reads the timeline itself.
const t = await webhookStack({ webhook: false, workers: ["sync"] });

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
