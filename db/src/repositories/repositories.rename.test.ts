import { describe, expect, it } from "vitest";
import { createTestDatabase, insertPullRequest, insertRun, insertUser, seedSolution } from "../../test/testing";
import * as pullRequests from "./pull-requests.repository";
import * as issues from "./issues.repository";
import * as repositories from "./repositories.repository";
import * as runs from "./runs.reads";

const { db } = await createTestDatabase();

let ids = 0;
const githubId = () => 9_100_000 + ++ids;

const repo = (github_id: number, fullName: string): repositories.SyncedRepository => {
  const [owner = "", name = ""] = fullName.split("/");
  return {
    github_id,
    owner,
    name,
    full_name: fullName,
    description: null,
    is_private: false,
    is_fork: false,
    language: "TypeScript",
    html_url: `https://github.com/${fullName}`,
    default_branch: "main",
    permission: "admin",
  };
};

const issue = (n: number, title: string): issues.GithubIssueColumns => ({
  github_id: 5_000_000 + n,
  issue_number: n,
  title,
  body: null,
  labels: [],
  state: "open",
  html_url: `https://github.com/x/y/issues/${n}`,
  author_login: "octocat",
  is_locked: false,
  assignees: [],
  github_created_at: new Date("2026-11-01T00:00:00Z"),
  github_updated_at: new Date("2026-11-02T00:00:00Z"),
});

const issuesOf = async (userId: string) =>
  (
    await issues
      .selectIssues(db)
      .where("issues.user_id", "=", userId)
      .orderBy("repo_full_name")
      .orderBy("issue_number")
      .execute()
  ).map((i) => ({
    repo_full_name: i.repo_full_name,
    issue_number: i.issue_number,
    title: i.title,
    repository_id: i.repository_id,
    fork_full_name: i.fork_full_name,
  }));

const pullRequestOf = async (userId: string) => {
  const pr = await pullRequests
    .selectPullRequests(db)
    .where("pull_requests.user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return { repo_full_name: pr.repo_full_name, head_repo_full_name: pr.head_repo_full_name, issue_id: pr.issue_id };
};

async function openPullRequest(userId: string, solutionId: string, issueId: string, base: string, head: string) {
  await insertPullRequest(db, { userId, solutionId, issueId, base, head });
}

describe("a repository renamed on GitHub", () => {
  it("keeps its issues and pull requests under the new name, so a sync stores no second copy", async () => {
    const userId = await insertUser(db);
    const gid = githubId();
    const first = await repositories.upsertSynced(db, userId, repo(gid, "octocat/todo-api"));
    await issues.upsertSynced(db, userId, { id: first.id, githubId: gid }, [
      issue(1, "Pagination skips a todo"),
      issue(2, "Dates lose their zone"),
    ]);
    const seeded = await seedSolution(db, { userId, repoFullName: "octocat/todo-api", issueNumber: 5, files: [] });
    await openPullRequest(userId, seeded.solutionId, seeded.issueId, "octocat/todo-api", "octocat/todo-api");

    const renamed = await repositories.upsertSynced(db, userId, repo(gid, "octocat/todo-service"));
    expect(renamed.id).toBe(first.id);
    // The next issue sync reads the issues under the new name.
    await issues.upsertSynced(db, userId, { id: renamed.id, githubId: gid }, [
      issue(1, "Pagination skips a todo at page boundaries"),
      issue(2, "Dates lose their zone"),
    ]);

    expect((await issuesOf(userId)).map((i) => [i.repo_full_name, i.issue_number, i.title])).toEqual([
      ["octocat/todo-service", 1, "Pagination skips a todo at page boundaries"],
      ["octocat/todo-service", 2, "Dates lose their zone"],
      ["octocat/todo-service", 5, "Pagination skips a todo at every page boundary"],
    ]);
    expect(await pullRequestOf(userId)).toEqual({
      repo_full_name: "octocat/todo-service",
      head_repo_full_name: "octocat/todo-service",
      issue_id: seeded.issueId,
    });
  });

  it("shows every user's issues, pull requests and list under the new name at once, from one row", async () => {
    const [alice, bob] = [await insertUser(db), await insertUser(db)];
    const gid = githubId();
    for (const userId of [alice, bob]) {
      const own = await repositories.upsertSynced(db, userId, repo(gid, "octocat/shared"));
      await issues.upsertSynced(db, userId, { id: own.id, githubId: gid }, [issue(1, "Shared #1")]);
    }
    const seeded = await seedSolution(db, { userId: bob, repoFullName: "octocat/shared", issueNumber: 5, files: [] });
    await openPullRequest(bob, seeded.solutionId, seeded.issueId, "octocat/shared", "octocat/shared");

    // Only Alice's sync saw the rename; Bob reads the new name without a sync of his own.
    await repositories.upsertSynced(db, alice, repo(gid, "octocat/shared-next"));
    expect((await issuesOf(bob)).map((i) => [i.repo_full_name, i.issue_number])).toEqual([
      ["octocat/shared-next", 1],
      ["octocat/shared-next", 5],
    ]);
    expect(await pullRequestOf(bob)).toMatchObject({
      repo_full_name: "octocat/shared-next",
      head_repo_full_name: "octocat/shared-next",
    });
    expect((await repositories.listOf(db, bob)).map((r) => [r.github_id, r.full_name])).toEqual([
      [String(gid), "octocat/shared-next"],
    ]);
    const rows = await db.selectFrom("github_repositories").select("full_name").where("github_id", "=", String(gid));
    expect(await rows.execute()).toEqual([{ full_name: "octocat/shared-next" }]);
  });

  it("does not hand its issues to a new repository that takes the old name", async () => {
    const userId = await insertUser(db);
    const oldId = githubId();
    const old = await repositories.upsertSynced(db, userId, repo(oldId, "octocat/todo-api"));
    await issues.upsertSynced(db, userId, { id: old.id, githubId: oldId }, [issue(1, "Old repo's #1")]);

    // Renamed, and a new repository created under the old name; the list is read in name order.
    const takerId = githubId();
    const taker = await repositories.upsertSynced(db, userId, repo(takerId, "octocat/todo-api"));
    await repositories.upsertSynced(db, userId, repo(oldId, "octocat/todo-legacy"));
    await issues.upsertSynced(db, userId, { id: taker.id, githubId: takerId }, [issue(1, "New repo's #1")]);

    const rows = await issuesOf(userId);
    expect(rows.map((i) => [i.repo_full_name, i.issue_number, i.title, i.repository_id])).toEqual([
      ["octocat/todo-api", 1, "New repo's #1", taker.id],
      ["octocat/todo-legacy", 1, "Old repo's #1", old.id],
    ]);
  });

  it("never overwrites an issue row that belongs to another repository of the same name", async () => {
    const userId = await insertUser(db);
    const [aId, bId] = [githubId(), githubId()];
    const a = await repositories.upsertSynced(db, userId, repo(aId, "octocat/todo-api"));
    const b = await repositories.upsertSynced(db, userId, repo(bId, "octocat/todo-api"));
    await issues.upsertSynced(db, userId, { id: a.id, githubId: aId }, [issue(1, "A's #1")]);
    await issues.upsertSynced(db, userId, { id: b.id, githubId: bId }, [issue(1, "B's #1")]);
    const rows = await issuesOf(userId);
    expect(rows.map((i) => [i.title, i.repository_id]).sort()).toEqual([
      ["A's #1", a.id],
      ["B's #1", b.id],
    ]);
  });

  it("moves an imported issue's fork name when the user's fork is renamed", async () => {
    const userId = await insertUser(db);
    const gid = githubId();
    await repositories.upsertSynced(db, userId, repo(gid, "octocat/requests"));
    const seeded = await seedSolution(db, {
      userId,
      repoFullName: "psf/requests",
      issueNumber: 5,
      files: [],
      imported: { upstream: "psf/requests", fork: "octocat/requests" },
    });
    await openPullRequest(userId, seeded.solutionId, seeded.issueId, "psf/requests", "octocat/requests");
    await repositories.upsertSynced(db, userId, repo(gid, "octocat/requests-fork"));
    expect((await issuesOf(userId)).map((i) => [i.repo_full_name, i.fork_full_name])).toEqual([
      ["psf/requests", "octocat/requests-fork"],
    ]);
    expect(await pullRequestOf(userId)).toMatchObject({
      repo_full_name: "psf/requests",
      head_repo_full_name: "octocat/requests-fork",
    });
  });
});

describe("an issue gone from a renamed repository", () => {
  /**
   * Alice synced her repository's #5 and Bob imported it (with a refinement running); then it was
   * renamed, and a new repository (Carol's) took the former name, with a #5 of its own.
   */
  async function renamedAndTaken() {
    const [alice, bob, carol] = [await insertUser(db), await insertUser(db), await insertUser(db)];
    const gid = githubId();
    const before = `octocat/app-${gid}`;
    const after = `octocat/app-${gid}-renamed`;
    const own = await repositories.upsertSynced(db, alice, repo(gid, before));
    await issues.upsertSynced(db, alice, { id: own.id, githubId: gid }, [issue(5, "The same #5")]);
    const imported = await seedSolution(db, {
      userId: bob,
      repoFullName: before,
      issueNumber: 5,
      files: [],
      imported: { upstream: before, fork: `bob/app-${gid}` },
    });
    const run = await insertRun(db, { user_id: bob, issue_id: imported.issueId, kind: "refine", status: "running" });
    await repositories.upsertSynced(db, alice, repo(gid, after));
    const takerId = githubId();
    const taker = await repositories.upsertSynced(db, carol, repo(takerId, before));
    await issues.upsertSynced(db, carol, { id: taker.id, githubId: takerId }, [issue(5, "Another #5")]);
    const row = (userId: string) =>
      issues
        .selectIssues(db)
        .where("issues.user_id", "=", userId)
        .where("issues.issue_number", "=", 5)
        .executeTakeFirstOrThrow();
    expect(await row(bob)).toMatchObject({ repo_full_name: after, upstream_full_name: after });
    expect(await row(carol)).toMatchObject({ repo_full_name: before });
    return { gid, takerId, runId: run.id, row, alice, bob, carol };
  }

  it("is marked gone for every user, and its runs found, by its repository's id whatever its name", async () => {
    const s = await renamedAndTaken();
    // What the solve start or the pull-request job reports after asking GitHub for the upstream's #5.
    expect(await issues.markGone(db, s.gid, 5, { reason: "deleted" })).toBe(2);
    for (const userId of [s.alice, s.bob]) expect(await s.row(userId)).toMatchObject({ gone: "deleted" });
    expect(await s.row(s.bob)).toMatchObject({ status: "closed" });
    expect(await s.row(s.carol)).toMatchObject({ status: "open", gone: null });
    const active = await runs.activeOfGoneIssue(db, s.gid, 5);
    expect(active.map((r) => r.id)).toEqual([s.runId]);
  });

  it("is not marked gone for issue #5 of a new repository that took its former name", async () => {
    const s = await renamedAndTaken();
    expect(await issues.markGone(db, s.takerId, 5, { reason: "deleted" })).toBe(1);
    expect(await s.row(s.carol)).toMatchObject({ gone: "deleted" });
    expect(await s.row(s.bob)).toMatchObject({ status: "solved", gone: null });
    expect(await s.row(s.alice)).toMatchObject({ gone: null });
    expect(await runs.activeOfGoneIssue(db, s.takerId, 5)).toEqual([]);
  });
});
