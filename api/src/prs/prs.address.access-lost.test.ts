import { beforeAll, describe, expect, it } from "vitest";
import { addressReviewStack } from "../../test/address-review.testkit";

let t: Awaited<ReturnType<typeof addressReviewStack>>;
beforeAll(async () => {
  t = await addressReviewStack();
}, 180_000);

/** The user's repositories as GitHub lists them now: the listing stores them, dropping those it no longer shows. */
const listed = async () => {
  const res = await t.api("/github/repositories");
  expect(res.status).toBe(200);
  return (res.body.repositories as { fullName: string }[]).map((r) => r.fullName);
};

const pullRequest = async (id: string) => {
  const res = await t.api("/prs");
  expect(res.status).toBe(200);
  return (
    res.body.pullRequests as { _id: string; actions: Record<string, { allowed: boolean; reason?: string }> }[]
  ).find((p) => p._id === id)?.actions;
};

describe("a pull request whose issue's repository left the user's list", () => {
  it("says so in its view, and refuses Address review and the push of a reviewed revision, writing nothing", async () => {
    const pr = await t.openPull(82, "Address review after the repository left");
    // A first review was addressed while the repository was listed: its revision waits to be pushed.
    const first = await t.comment(pr, pr.file, 1, "Please explain the boundary.");
    const addressed = await t.api(`/prs/${pr.id}/address-review`, { method: "POST", body: { commentIds: [first] } });
    expect(addressed.status).toBe(202);
    expect((await t.finished(addressed.body.runId))?.event).toBe("completed");
    const c = await t.comment(pr, pr.file, 2, "Please name the constant.");
    expect(await listed()).toContain("octocat/todo-api");
    expect((await pullRequest(pr.id))?.address).toEqual({ allowed: true });

    // octocat gives the repository away: the next listing drops it from their list.
    await t.control.transferRepository("octocat", "todo-api", "hubot");
    expect(await listed()).not.toContain("octocat/todo-api");
    // The user's access row stays (the issue and pull request are still theirs), marked as having left the list.
    const access = await t.stack.db
      .selectFrom("pull_requests")
      .innerJoin("issues", "issues.id", "pull_requests.issue_id")
      .innerJoin("repositories", (join) =>
        join
          .onRef("repositories.user_id", "=", "issues.user_id")
          .onRef("repositories.github_id", "=", "issues.repository_github_id"),
      )
      .select("repositories.left_at")
      .where("pull_requests.id", "=", pr.id)
      .executeTakeFirstOrThrow();
    expect(access.left_at).toBeInstanceOf(Date);
    // The pull requests page is told, so it can say why instead of offering "Address review".
    const lost = "You no longer have access to this issue's repository on GitHub, so";
    expect(await pullRequest(pr.id)).toMatchObject({
      address: { allowed: false, reason: `${lost} its solution cannot be refined to address this review` },
      push: { allowed: false, reason: `${lost} no revision can be pushed to its pull request` },
    });

    const state = async () => ({
      runs: await t.stack.db.selectFrom("solve_runs").select("id").orderBy("id").execute(),
      used: await t.stack.db.selectFrom("usage_counters").select("used").execute(),
      solution: await t.stack.db
        .selectFrom("solutions")
        .select(["status", "revision"])
        .where("id", "=", pr.solutionId)
        .executeTakeFirst(),
      pushedRevision: (
        await t.stack.db
          .selectFrom("pull_requests")
          .select("pushed_revision")
          .where("id", "=", pr.id)
          .executeTakeFirstOrThrow()
      ).pushed_revision,
      branchWrites: t.control.refUpdates.filter((u) => u.ref === `refs/heads/${pr.branch}`).length,
    });
    const before = await state();
    const refused = await t.api(`/prs/${pr.id}/address-review`, { method: "POST", body: { commentIds: [c] } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toEqual({
      code: "repository.access_lost",
      message: `${lost} its solution cannot be refined to address this review`,
    });
    expect(await state()).toEqual(before);
    // The revision addressing the first review is not pushed: the branch is on that repository.
    expect(before.solution?.revision).toBeGreaterThan(before.pushedRevision ?? 0);
    const push = await t.api(`/prs/${pr.id}/push`, { method: "POST" });
    expect(push.status).toBe(403);
    expect(push.body.error).toEqual({
      code: "repository.access_lost",
      message:
        "You no longer have access to this issue's repository on GitHub, so no revision can be pushed to its pull request",
    });
    expect(await state()).toEqual(before);
    // The comment is not marked as being addressed.
    const timeline = (await t.api(`/prs/${pr.id}/timeline`)).body.timeline as Record<string, unknown>[];
    expect(timeline.find((e) => e.sourceId === c)?.addressRequestedAt).toBeNull();
  });
});
