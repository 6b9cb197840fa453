import { describe, expect, it } from "vitest";
import { repositories } from "@fixloop/db";
import { sweepOnce } from "@fixloop/worker";
import { until, usedQuota } from "../../test/faults.testkit";
import { ACCESS_LOST, repositoryLeavingKit } from "../../test/repository-leaving.testkit";

/**
 * A repository sync that removed a repository and failed before stopping the runs of its issues:
 * the mark the removal left stops them at the next sync or sweep, each unit given back once.
 */
const kit = repositoryLeavingKit();
const { list, syncedIssues, solve, run } = kit;

describe("the runs a failed sync left going after removing their repository", () => {
  it("stops the runs a sync that failed after removing the repository left going, at the next sync, giving each unit back once", async () => {
    const repo = "octocat/todo-api";
    expect(await list()).toContain(repo);
    const [first = "", second = ""] = await syncedIssues(
      ["Due dates ignore the time zone", "Done items reappear"],
      repo,
    );
    const before = await usedQuota(kit.stack.db, kit.me.user._id);
    const asked = kit.models.control.requests.length;
    const aborted = kit.models.control.abortedRequests;

    kit.models.control.latency(1_500);
    const running = await solve(first);
    await until("the run's first model request", async () => kit.models.control.requests.length > asked, 30_000, 20);
    const queued = await solve(second);
    expect(await usedQuota(kit.stack.db, kit.me.user._id)).toBe(before + 2);

    // octocat gives the repository away, and a sync removes it from the list, then dies before
    // stopping anything (as a Redis error or a killed job would leave it).
    await kit.stack.github.control.transferRepository("octocat", "todo-api", "hubot");
    const kept = await repositories
      .selectWithGithub(kit.stack.db)
      .where("repositories.user_id", "=", kit.me.user._id)
      .where("g.full_name", "<>", repo)
      .execute();
    expect(
      await repositories.removeUnseen(
        kit.stack.db,
        kit.me.user._id,
        kept.map((r) => String(r.github_id)),
      ),
    ).toEqual([repo]);
    // The user's access row stays, marked as having left the list.
    expect(
      await repositories
        .selectWithGithub(kit.stack.db)
        .clearSelect()
        .select(["g.full_name", "repositories.left_at"])
        .where("repositories.user_id", "=", kit.me.user._id)
        .where("g.full_name", "=", repo)
        .execute(),
    ).toEqual([{ full_name: repo, left_at: expect.any(Date) as Date }]);
    expect(await run(queued)).toMatchObject({ status: "queued", error_code: null, quota_state: "reserved" });
    expect(await run(running)).toMatchObject({ status: "running", cancel_requested_at: null });

    // The next sync no longer sees the repository leave, yet both runs stop.
    expect(await list()).not.toContain(repo);
    await kit.stoppedForAccessLost(queued, running);
    expect(kit.models.control.abortedRequests).toBe(aborted + 1);
    expect(await run(running)).toMatchObject({
      status: "cancelled",
      error_code: ACCESS_LOST.code,
      quota_state: "released",
      solution_id: null,
    });
    expect(await usedQuota(kit.stack.db, kit.me.user._id)).toBe(before);

    // A further sync finds nothing more to stop or give back.
    expect(await list()).not.toContain(repo);
    expect(await usedQuota(kit.stack.db, kit.me.user._id)).toBe(before);
    expect(await run(queued)).toMatchObject({ status: "cancelled", quota_state: "released" });
  });

  it("has the sweeper stop the runs a failed sync left going, though the user does not sync again", async () => {
    await kit.stack.github.control.createRepository("octocat", "ledger");
    const repo = "octocat/ledger";
    expect(await list()).toContain(repo);
    const [first = "", second = ""] = await syncedIssues(["Totals round twice", "Export drops notes"], repo);
    const before = await usedQuota(kit.stack.db, kit.me.user._id);
    const asked = kit.models.control.requests.length;

    kit.models.control.latency(1_500);
    const running = await solve(first);
    await until("the run's first model request", async () => kit.models.control.requests.length > asked, 30_000, 20);
    const queued = await solve(second);
    await kit.stack.github.control.transferRepository("octocat", "ledger", "hubot");
    const kept = await repositories
      .selectWithGithub(kit.stack.db)
      .where("repositories.user_id", "=", kit.me.user._id)
      .where("g.full_name", "<>", repo)
      .execute();
    await repositories.removeUnseen(
      kit.stack.db,
      kit.me.user._id,
      kept.map((r) => String(r.github_id)),
    );
    expect(await run(queued)).toMatchObject({ status: "queued", quota_state: "reserved" });

    await kit.stack.redis.del(`${kit.stack.prefix}:sweeper-lock`);
    expect((await sweepOnce(kit.stack.ctx, 5)).accessLost.sort()).toEqual([running, queued].sort());
    await kit.stoppedForAccessLost(queued, running);
    expect(await run(running)).toMatchObject({
      status: "cancelled",
      error_code: ACCESS_LOST.code,
      quota_state: "released",
    });
    expect(await usedQuota(kit.stack.db, kit.me.user._id)).toBe(before);

    await kit.stack.redis.del(`${kit.stack.prefix}:sweeper-lock`);
    expect((await sweepOnce(kit.stack.ctx, 5)).accessLost).toEqual([]);
    expect(await usedQuota(kit.stack.db, kit.me.user._id)).toBe(before);
  });
});
