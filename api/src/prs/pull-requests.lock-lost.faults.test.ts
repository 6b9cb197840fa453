import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitBranches, gitShow, seedSolution } from "@fixloop/testkit";
import { QUEUES, jobIds } from "@fixloop/contract";
import { branchName } from "@fixloop/worker";
import { createTestStack, type TestStack } from "../../test/stack";
import { BUGGY_LINES, approve } from "../../test/pull-requests.fixtures";
import { until } from "../../test/faults.testkit";
import { lapseLock, queueWorkers } from "../../test/lock-lost.testkit";

/**
 * Two pull-request workers started here, one after the other. The first one's lock on the job is
 * taken from it while it waits out GitHub's secondary rate limit, and the job goes back to the
 * queue, as BullMQ does with a job whose lock lapsed.
 */
let stack: TestStack;
const workers = queueWorkers(() => stack, QUEUES.pullRequest);
const firstLog: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  stack = await createTestStack({
    workers: ["sync", "syntax-check"],
    logLevel: "warn",
    env: { JOB_WAIT_SECONDS: "1" },
  });
}, 60_000);
afterAll(async () => {
  await workers.closeAll();
});

describe("a worker whose lock on a pull-request job lapsed", () => {
  it("records nothing and leaves the solution approved; the new holder records the one pull request", async () => {
    const me = await stack.signIn("octocat", { scopes: ["public_repo"] });
    const upstreamDir = stack.github.control.gitDir("octocat", "todo-api");
    const paginate = gitShow(upstreamDir, "main", "src/paginate.ts");
    const { solutionId } = await seedSolution(stack.db, {
      userId: me.user._id,
      repoFullName: "octocat/todo-api",
      issueNumber: 3,
      files: [
        {
          filename: "src/paginate.ts",
          action: "modify",
          originalContent: paginate,
          content: paginate.replace(BUGGY_LINES, "  const start = (current - 1) * size;\n"),
        },
      ],
    });
    const branch = branchName(3, "Pagination skips a todo at every page boundary");
    // The first look for an open pull request from the branch is rate limited: the client waits 12 s.
    stack.github.control.failNext({ path: /\/pulls$/, status: 403, kind: "secondary", retryAfter: 12 });
    const firstWorker = workers.start({ log: firstLog });
    const approved = await approve(stack, solutionId, me.headers);
    expect(approved.status).toBeLessThan(300);
    await until("the branch pushed", async () => gitBranches(upstreamDir).includes(branch), 30_000, 50);

    // The lock lapses and the job goes back to the queue. The first worker takes no new job from
    // now on (it would take this one again), so what it does after the lapse is seen alone.
    await firstWorker.workers[0]?.pause(true);
    const job = await stack.deps.queues.pullRequest.getJob(jobIds.pullRequest(solutionId));
    await lapseLock(stack, QUEUES.pullRequest, job);
    // Closing waits for the first worker's job to end: whatever it was going to write is written by then.
    await workers.close(firstWorker);

    // It recorded no pull request and did not give the approval back; GitHub has the one it opened.
    const rows = () =>
      stack.db.selectFrom("pull_requests").select(["pr_number"]).where("solution_id", "=", solutionId).execute();
    expect(await rows()).toEqual([]);
    const status = async () =>
      (await stack.db.selectFrom("solutions").select("status").where("id", "=", solutionId).executeTakeFirstOrThrow())
        .status;
    expect(await status()).toBe("approved");
    expect(firstLog.filter((l) => String(l.msg).startsWith("lost the job's lock"))).toHaveLength(1);
    const pulls = () => stack.github.control.listPulls("octocat", "todo-api").filter((p) => p.head.ref === branch);
    expect(pulls()).toHaveLength(1);

    // The second worker takes the job, finds that pull request and records it.
    workers.start();
    await until("the pull request recorded", async () => (await rows()).length === 1, 30_000);
    expect(await rows()).toEqual([{ pr_number: pulls()[0]?.number }]);
    expect(pulls()).toHaveLength(1);
    expect(await status()).toBe("pr_created");
    const done = await stack.deps.queues.pullRequest.getJob(jobIds.pullRequest(solutionId));
    expect(await done?.getState()).toBe("completed");
  }, 120_000);
});
