import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createTestDatabase, insertPullRequest, insertUser, seedRepository, seedSolution } from "../../test/testing";
import { ClaimLost, fenced, releaseClaim, type Claim } from "./claims";
import * as issues from "./issues.repository";
import * as pullRequests from "./pull-requests.repository";
import * as reviewAddressing from "./review-addressing.repository";
import * as solutions from "./solutions.repository";

const { db } = await createTestDatabase();
const UPSTREAM = { github_id: await seedRepository(db, "upstream/todo-api"), full_name: "upstream/todo-api" };
const HEAD = { github_id: await seedRepository(db, "octocat/todo-api"), full_name: "octocat/todo-api" };

const FILES = [{ filename: "a.js", action: "modify" as const, content: "b", originalContent: "a" }];
const tests = (summary: string) => ({ status: "passed", summary });
const verdict = { unverified: null, reproduction: null };

async function solution(status: "pending" | "approved" | "pr_created" = "pending") {
  const userId = await insertUser(db);
  const seeded = await seedSolution(db, {
    userId,
    repoFullName: `octocat/todo-${randomUUID().slice(0, 8)}`,
    issueNumber: 5,
    files: FILES,
    status: status === "pending" ? "pending" : "approved",
    imported: { upstream: "upstream/todo-api", fork: `octocat/fork-${randomUUID().slice(0, 8)}` },
  });
  if (status === "pr_created")
    await db.updateTable("solutions").set({ status }).where("id", "=", seeded.solutionId).execute();
  return { userId, ...seeded };
}

/** What a late writer of the solution's jobs could change: the solution, its issue, its pull request and review threads. */
async function stateOf(solutionId: string) {
  const s = await db
    .selectFrom("solutions")
    .select(["status", "metadata", "revision", "tests_claim_token", "pr_claim_token", "issue_id"])
    .where("id", "=", solutionId)
    .executeTakeFirstOrThrow();
  const issue = await issues.selectIssues(db).where("issues.id", "=", s.issue_id).executeTakeFirstOrThrow();
  const pulls = await pullRequests.selectPullRequests(db).where("pull_requests.solution_id", "=", solutionId).execute();
  const prs = pulls.map((p) => ({
    id: p.id,
    pr_number: p.pr_number,
    repo_full_name: p.repo_full_name,
    head_repo_full_name: p.head_repo_full_name,
    html_url: p.html_url,
    pushed_revision: p.pushed_revision,
    head_sha: p.head_sha,
    body: p.body,
  }));
  const threads = await db
    .selectFrom("pull_request_events")
    .select(["source_id", "addressed_commit"])
    .where("pull_request_id", "in", prs.length ? prs.map((p) => p.id) : [randomUUID()])
    .orderBy("source_id")
    .execute();
  return {
    solution: s,
    issue: { status: issue.status, fork_github_id: issue.fork_github_id, fork_full_name: issue.fork_full_name },
    prs,
    threads,
  };
}

const rerunClaim = async (solutionId: string, revision = 1) => {
  const c = await solutions.claimTestsRerun(db, solutionId, revision, randomUUID());
  expect(c, "the re-run is claimed").not.toBeNull();
  return c as Claim;
};
const prClaim = async (solutionId: string) => {
  const c = await solutions.claimPullRequest(db, solutionId, randomUUID());
  expect(c, "the pull-request job is claimed").not.toBeNull();
  return c as Claim;
};

const newPullRequest = (s: { userId: string; solutionId: string; issueId: string }, number: number) => ({
  userId: s.userId,
  solutionId: s.solutionId,
  issueId: s.issueId,
  base: UPSTREAM,
  head: HEAD,
  number,
  title: "Fix",
  body: `opened by #${number}'s worker`,
  branch: "fixloop/5",
  baseBranch: "main",
  status: "open" as const,
  htmlUrl: `https://github.com/upstream/todo-api/pull/${number}`,
  metadata: { labels: [] },
});

describe("a tests re-run's claim fences its evidence", () => {
  it("a worker whose re-run was claimed by another while its tests still ran writes no evidence; the new holder's lands", async () => {
    const s = await solution();
    const first = await rerunClaim(s.solutionId);
    // The first worker's lock lapsed: the second takes the job over and claims the re-run anew.
    const second = await rerunClaim(s.solutionId);
    const before = await stateOf(s.solutionId);
    expect(before.solution.tests_claim_token).toBe(second.token);

    await expect(solutions.replaceTests(db, first, 1, tests("first's late evidence"), verdict)).rejects.toBeInstanceOf(
      ClaimLost,
    );
    expect(await stateOf(s.solutionId)).toEqual(before);

    expect(await solutions.replaceTests(db, second, 1, tests("second's evidence"), verdict)).toBe(true);
    expect((await stateOf(s.solutionId)).solution.metadata).toMatchObject({ tests: { summary: "second's evidence" } });
    // Even a repeat of the new holder's evidence is not the first worker's to write.
    await expect(solutions.replaceTests(db, first, 1, tests("first again"), verdict)).rejects.toBeInstanceOf(ClaimLost);
    expect((await stateOf(s.solutionId)).solution.metadata).toMatchObject({ tests: { summary: "second's evidence" } });
  });

  it("a claim given up (its lock lost) fences its holder before any other worker claims the re-run", async () => {
    const s = await solution();
    const claim = await rerunClaim(s.solutionId);
    expect(await releaseClaim(db, claim)).toBe(true);
    expect(await releaseClaim(db, claim)).toBe(false);
    const before = await stateOf(s.solutionId);
    await expect(solutions.replaceTests(db, claim, 1, tests("late"), verdict)).rejects.toBeInstanceOf(ClaimLost);
    expect(await stateOf(s.solutionId)).toEqual(before);
  });

  it("a newer edit supersedes the re-run (no evidence, no ClaimLost); only the current revision of a pending solution is claimed", async () => {
    const s = await solution();
    const first = await rerunClaim(s.solutionId);
    await db.updateTable("solutions").set({ revision: 2 }).where("id", "=", s.solutionId).execute();
    const before = await stateOf(s.solutionId);
    expect(await solutions.replaceTests(db, first, 1, tests("stale"), verdict)).toBe(false);
    expect(await stateOf(s.solutionId)).toEqual(before);
    expect(await solutions.claimTestsRerun(db, s.solutionId, 1, randomUUID())).toBeNull();
    const approved = await solution("approved");
    expect(await solutions.claimTestsRerun(db, approved.solutionId, 1, randomUUID())).toBeNull();
    expect(await solutions.claimTestsRerun(db, randomUUID(), 1, randomUUID())).toBeNull();
  });

  it("a claim for one job is no other's: a pull-request token does not pass for the re-run's, nor the other way", async () => {
    const s = await solution();
    const rerun = await rerunClaim(s.solutionId);
    const pr = await prClaim(s.solutionId);
    expect((await stateOf(s.solutionId)).solution).toMatchObject({
      tests_claim_token: rerun.token,
      pr_claim_token: pr.token,
    });
    // The same tokens, named as the other job's claim, hold nothing.
    const swapped: Claim = { kind: "pullRequest", id: s.solutionId, token: rerun.token };
    await expect(solutions.returnToPending(db, s.solutionId, swapped)).rejects.toBeInstanceOf(ClaimLost);
    await expect(
      solutions.replaceTests(db, { ...rerun, token: pr.token }, 1, tests("x"), verdict),
    ).rejects.toBeInstanceOf(ClaimLost);
    expect(await solutions.replaceTests(db, rerun, 1, tests("the re-run's own"), verdict)).toBe(true);
  });

  it("a new claim waits for the write its predecessor is making, then takes the job", async () => {
    const s = await solution();
    const first = await rerunClaim(s.solutionId);
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    let inside = () => {};
    const entered = new Promise<void>((r) => (inside = r));
    const write = fenced(db, first, async () => {
      inside();
      await held;
    });
    await entered;
    // While the first worker's fenced write is open, the claim cannot be taken (it would wait).
    const waited = await db
      .transaction()
      .execute(async (trx) => {
        await sql`set local lock_timeout = '300ms'`.execute(trx);
        return solutions.claimTestsRerun(trx, s.solutionId, 1, randomUUID());
      })
      .catch((err: { code?: string }) => err.code);
    expect(waited).toBe("55P03");
    release();
    await write;
    const second = await rerunClaim(s.solutionId);
    expect((await stateOf(s.solutionId)).solution.tests_claim_token).toBe(second.token);
  });
});

describe("a pull-request job's claim fences its records", () => {
  it("a worker whose job was claimed by another records no pull request and gives no approval back", async () => {
    const s = await solution("approved");
    const first = await prClaim(s.solutionId);
    const second = await prClaim(s.solutionId);
    const before = await stateOf(s.solutionId);

    const late: Array<[string, () => Promise<unknown>]> = [
      ["record", () => pullRequests.record(db, newPullRequest(s, 7), first)],
      ["returnToPending", () => solutions.returnToPending(db, s.solutionId, first)],
      [
        "replaceFork",
        () =>
          fenced(db, first, (trx) =>
            issues.replaceFork(trx, s.userId, {
              goneId: before.issue.fork_github_id ?? "",
              fork: { github_id: 31_337, full_name: "octocat/late-fork" },
            }),
          ),
      ],
    ];
    for (const [name, write] of late) await expect(write(), name).rejects.toBeInstanceOf(ClaimLost);
    expect(await stateOf(s.solutionId)).toEqual(before);
    expect(before.solution.status).toBe("approved");
    expect(before.prs).toEqual([]);

    // The new holder records the one pull request.
    await pullRequests.record(db, newPullRequest(s, 8), second);
    const after = await stateOf(s.solutionId);
    expect(after.prs.map((p) => p.pr_number)).toEqual([8]);
    expect(after.solution.status).toBe("pr_created");
    await expect(pullRequests.record(db, newPullRequest(s, 7), first)).rejects.toBeInstanceOf(ClaimLost);
    expect((await stateOf(s.solutionId)).prs.map((p) => p.pr_number)).toEqual([8]);
  });

  it("a push whose job was claimed by another moves no names, records no push and marks no thread answered", async () => {
    const s = await solution("pr_created");
    const pr = await insertPullRequest(db, {
      userId: s.userId,
      solutionId: s.solutionId,
      issueId: s.issueId,
      base: "upstream/todo-api",
      head: "octocat/todo-api",
    });
    await db
      .insertInto("pull_request_events")
      .values({
        pull_request_id: pr.id,
        kind: "review_comment",
        source_id: "101",
        actor: "hubot",
        body: "Please rename",
        occurred_at: new Date(),
        address_requested_at: new Date(),
      })
      .execute();
    const first = await prClaim(s.solutionId);
    const second = await prClaim(s.solutionId);
    const before = await stateOf(s.solutionId);

    const late: Array<[string, () => Promise<unknown>]> = [
      [
        "followRepositories",
        () =>
          fenced(db, first, (trx) =>
            pullRequests.followRepositories(trx, [
              { githubId: Number(pr.base_github_id), fullName: "upstream/renamed" },
              { githubId: Number(pr.head_github_id), fullName: "octocat/renamed" },
            ]),
          ),
      ],
      ["recordPush", () => reviewAddressing.recordPush(db, first, pr.id, { revision: 2, headSha: "f1rst" })],
      [
        "recordPush body",
        () => reviewAddressing.recordPush(db, first, pr.id, { revision: 2, headSha: "f1rst", body: "late" }),
      ],
      ["markAddressed", () => reviewAddressing.markAddressed(db, first, pr.id, "101", "f1rst")],
    ];
    for (const [name, write] of late) await expect(write(), name).rejects.toBeInstanceOf(ClaimLost);
    expect(await stateOf(s.solutionId)).toEqual(before);
    expect(before.threads).toEqual([{ source_id: "101", addressed_commit: null }]);

    // The new holder's records land.
    await reviewAddressing.recordPush(db, second, pr.id, { revision: 2, headSha: "s3cond" });
    await reviewAddressing.markAddressed(db, second, pr.id, "101", "s3cond");
    const after = await stateOf(s.solutionId);
    expect(after.prs[0]).toMatchObject({ pushed_revision: 2, head_sha: "s3cond" });
    expect(after.threads).toEqual([{ source_id: "101", addressed_commit: "s3cond" }]);
  });

  it("a claim given up fences its holder; a solution that does not exist is not claimed", async () => {
    const s = await solution("approved");
    const claim = await prClaim(s.solutionId);
    expect(await releaseClaim(db, claim)).toBe(true);
    await expect(solutions.returnToPending(db, s.solutionId, claim)).rejects.toBeInstanceOf(ClaimLost);
    expect((await stateOf(s.solutionId)).solution.status).toBe("approved");
    expect(await solutions.claimPullRequest(db, randomUUID(), randomUUID())).toBeNull();
  });
});
