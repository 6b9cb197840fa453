import { describe, expect, it } from "vitest";
import { createTestDatabase, insertPullRequest, insertRun, insertUser, seedSolution } from "../../test/testing";
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
    can_push: true,
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

const issuesOf = (userId: string) =>
  db
    .selectFrom("issues")
    .select(["repo_full_name", "issue_number", "title", "repository_id", "fork_full_name"])
    .where("user_id", "=", userId)
    .orderBy("repo_full_name")
    .orderBy("issue_number")
    .execute();

async function openPullRequest(userId: string, solutionId: string, issueId: string, base: string, head: string) {
  await insertPullRequest(db, { userId, solutionId, issueId, base, head });
}

describe("a repository renamed on GitHub", () => {
  it("keeps its issues and pull requests under the new name, so a sync stores no second copy", async () => {
    const userId = await insertUser(db);
    const gid = githubId();
    const first = await repositories.upsertSynced(db, userId, repo(gid, "octocat/todo-api"));
    await issues.upsertSynced(db, userId, { id: first.id, fullName: "octocat/todo-api" }, [
      issue(1, "Pagination skips a todo"),
      issue(2, "Dates lose their zone"),
    ]);
    const seeded = await seedSolution(db, { userId, repoFullName: "octocat/todo-api", issueNumber: 5, files: [] });
    await openPullRequest(userId, seeded.solutionId, seeded.issueId, "octocat/todo-api", "octocat/todo-api");

    const renamed = await repositories.upsertSynced(db, userId, repo(gid, "octocat/todo-service"));
    expect(renamed.id).toBe(first.id);
    // The next issue sync reads the issues under the new name.
    await issues.upsertSynced(db, userId, { id: renamed.id, fullName: "octocat/todo-service" }, [
      issue(1, "Pagination skips a todo at page boundaries"),
      issue(2, "Dates lose their zone"),
    ]);

    expect((await issuesOf(userId)).map((i) => [i.repo_full_name, i.issue_number, i.title])).toEqual([
      ["octocat/todo-service", 1, "Pagination skips a todo at page boundaries"],
      ["octocat/todo-service", 2, "Dates lose their zone"],
      ["octocat/todo-service", 5, "Pagination skips a todo at every page boundary"],
    ]);
    const pr = await db
      .selectFrom("pull_requests")
      .select(["repo_full_name", "head_repo_full_name", "issue_id"])
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    expect(pr).toEqual({
      repo_full_name: "octocat/todo-service",
      head_repo_full_name: "octocat/todo-service",
      issue_id: seeded.issueId,
    });
  });

  it("does not hand its issues to a new repository that takes the old name", async () => {
    const userId = await insertUser(db);
    const oldId = githubId();
    const old = await repositories.upsertSynced(db, userId, repo(oldId, "octocat/todo-api"));
    await issues.upsertSynced(db, userId, { id: old.id, fullName: "octocat/todo-api" }, [issue(1, "Old repo's #1")]);

    // Renamed, and a new repository created under the old name; the list is read in name order.
    const taker = await repositories.upsertSynced(db, userId, repo(githubId(), "octocat/todo-api"));
    await repositories.upsertSynced(db, userId, repo(oldId, "octocat/todo-legacy"));
    await issues.upsertSynced(db, userId, { id: taker.id, fullName: "octocat/todo-api" }, [issue(1, "New repo's #1")]);

    const rows = await issuesOf(userId);
    expect(rows.map((i) => [i.repo_full_name, i.issue_number, i.title, i.repository_id])).toEqual([
      ["octocat/todo-api", 1, "New repo's #1", taker.id],
      ["octocat/todo-legacy", 1, "Old repo's #1", old.id],
    ]);
  });

  it("never overwrites an issue row that belongs to another repository of the same name", async () => {
    const userId = await insertUser(db);
    const a = await repositories.upsertSynced(db, userId, repo(githubId(), "octocat/todo-api"));
    const b = await db
      .insertInto("repositories")
      .values({
        user_id: userId,
        github_id: githubId(),
        owner: "octocat",
        name: "todo-api",
        full_name: "octocat/todo-api",
        html_url: "https://github.com/octocat/todo-api",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await issues.upsertSynced(db, userId, { id: a.id, fullName: "octocat/todo-api" }, [issue(1, "A's #1")]);
    await issues.upsertSynced(db, userId, { id: b.id, fullName: "octocat/todo-api" }, [issue(1, "B's #1")]);
    expect((await issuesOf(userId)).map((i) => [i.title, i.repository_id])).toEqual([["A's #1", a.id]]);
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
    const pr = await db
      .selectFrom("pull_requests")
      .select(["repo_full_name", "head_repo_full_name"])
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    expect(pr).toEqual({ repo_full_name: "psf/requests", head_repo_full_name: "octocat/requests-fork" });
  });
});

describe("an issue imported from a repository renamed onto a name another row of it held", () => {
  /**
   * The user imported issue #5 of their own repository, then it was renamed, and #5 was stored
   * under the new name (say, by a sync of the renamed repository) before the rename reached the
   * repository list: the imported row keeps its repo_full_name, its upstream moves on.
   */
  async function splitImport() {
    const userId = await insertUser(db);
    const gid = githubId();
    // Names of their own: markGone reaches every user's rows of a name.
    const before = `octocat/app-${gid}`;
    const after = `octocat/app-${gid}-renamed`;
    await repositories.upsertSynced(db, userId, repo(gid, before));
    const imported = await seedSolution(db, {
      userId,
      repoFullName: before,
      issueNumber: 5,
      files: [],
      imported: { upstream: before, fork: before },
    });
    await issues.upsertSynced(db, userId, { id: null, fullName: after }, [issue(5, "The same #5")]);
    await repositories.upsertSynced(db, userId, repo(gid, after));
    const run = await insertRun(db, { user_id: userId, issue_id: imported.issueId, kind: "refine", status: "running" });
    const row = () =>
      db
        .selectFrom("issues")
        .select(["repo_full_name", "upstream_full_name", "status", "gone"])
        .where("id", "=", imported.issueId)
        .executeTakeFirstOrThrow();
    expect(await row()).toMatchObject({
      repo_full_name: before,
      upstream_full_name: after,
    });
    return { before, after, issueId: imported.issueId, runId: run.id, row };
  }

  it("is marked gone, and its runs found, by the upstream name Fixloop reads it under", async () => {
    const s = await splitImport();
    // What the solve start or the pull-request job reports after asking GitHub for the upstream's #5.
    expect(await issues.markGone(db, s.after.toUpperCase(), 5, { reason: "deleted" })).toBe(2);
    expect(await s.row()).toMatchObject({ status: "closed", gone: "deleted" });
    const active = await runs.activeOfGoneIssue(db, s.after, 5);
    expect(active.map((r) => r.id)).toEqual([s.runId]);
  });

  it("is not marked gone for issue #5 of a new repository that took its former name", async () => {
    const s = await splitImport();
    expect(await issues.markGone(db, s.before, 5, { reason: "deleted" })).toBe(0);
    expect(await s.row()).toMatchObject({ status: "solved", gone: null });
    expect(await runs.activeOfGoneIssue(db, s.before, 5)).toEqual([]);
  });
});
