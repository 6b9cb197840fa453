import { sql, type Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import type { Database } from "../schema";
import { createTestDatabase, insertRun, insertUser, seedSolution } from "../../test/testing";
import * as issues from "./issues.repository";
import * as pullRequests from "./pull-requests.repository";
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
  await db
    .insertInto("pull_requests")
    .values({
      user_id: userId,
      solution_id: solutionId,
      issue_id: issueId,
      repo_full_name: base,
      head_repo_full_name: head,
      pr_number: 12,
      title: "Fix #5",
      body: null,
      branch_name: "fixloop/issue-5",
      base_branch: "main",
      html_url: `https://github.com/${base}/pull/12`,
      metadata: JSON.stringify({}),
    })
    .execute();
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

describe("a pull request's repositories found renamed when a revision is pushed", () => {
  async function opened(base: string, head: string, htmlUrl: string, conn: Kysely<Database> = db) {
    const userId = await insertUser(db);
    const seeded = await seedSolution(db, { userId, repoFullName: base, issueNumber: 5, files: [] });
    return conn
      .insertInto("pull_requests")
      .values({
        user_id: userId,
        solution_id: seeded.solutionId,
        issue_id: seeded.issueId,
        repo_full_name: base,
        head_repo_full_name: head,
        pr_number: 12,
        title: "Fix #5",
        body: null,
        branch_name: "fixloop/issue-5",
        base_branch: "main",
        html_url: htmlUrl,
        metadata: JSON.stringify({}),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }
  const names = (id: string) =>
    db
      .selectFrom("pull_requests")
      .select(["repo_full_name", "head_repo_full_name", "html_url"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();

  it("takes the new names and its page under the base's new name, on the host it was stored with", async () => {
    const n = githubId();
    const pr = await opened(`acme/lib-${n}`, `hubot/lib-${n}`, `https://ghe.example.com/acme/lib-${n}/pull/12`);
    const other = await opened(`acme/app-${n}`, `acme/app-${n}`, `https://github.com/acme/app-${n}/pull/12`);
    const to = { repoFullName: `acme/lib-${n}-next`, headRepoFullName: `hubot/fork-${n}` };
    const moved = await pullRequests.followNames(db, pr, to);
    const expected = {
      repo_full_name: `acme/lib-${n}-next`,
      head_repo_full_name: `hubot/fork-${n}`,
      html_url: `https://ghe.example.com/acme/lib-${n}-next/pull/12`,
    };
    expect(moved).toEqual(expected);
    expect(await names(pr.id)).toEqual(expected);
    expect(await names(other.id)).toEqual({
      repo_full_name: `acme/app-${n}`,
      head_repo_full_name: `acme/app-${n}`,
      html_url: `https://github.com/acme/app-${n}/pull/12`,
    });
  });

  it("keeps its names when GitHub's answer names no owner/name", async () => {
    const n = githubId();
    const pr = await opened(`acme/lib-${n}`, `acme/lib-${n}`, `https://github.com/acme/lib-${n}/pull/12`);
    const before = await names(pr.id);
    for (const to of [
      { repoFullName: "acme/..", headRepoFullName: `acme/lib-${n}` },
      { repoFullName: `acme/lib-${n}`, headRepoFullName: "evil/lib/../../x" },
      { repoFullName: "acme/lib?x=1", headRepoFullName: "acme/lib" },
      { repoFullName: "", headRepoFullName: "acme/lib" },
    ])
      expect(await pullRequests.followNames(db, pr, to)).toEqual(before);
    expect(await names(pr.id)).toEqual(before);
  });

  it("keeps its names when another stored pull request holds its number under the new name", async () => {
    const n = githubId();
    const pr = await opened(`acme/lib-${n}`, `acme/lib-${n}`, `https://github.com/acme/lib-${n}/pull/12`);
    // A repository that had the name before, with a pull request #12 Fixloop recorded.
    const holder = await opened(`acme/web-${n}`, `acme/web-${n}`, `https://github.com/acme/web-${n}/pull/12`);
    const before = await names(pr.id);
    const kept = await pullRequests.followNames(db, pr, {
      repoFullName: `acme/web-${n}`,
      headRepoFullName: `acme/web-${n}`,
    });
    expect(kept).toEqual(before);
    expect(await names(pr.id)).toEqual(before);
    expect(await names(holder.id)).toMatchObject({ repo_full_name: `acme/web-${n}` });
  });

  /** How many sessions wait for a lock: a move waiting on a held row's unique key. */
  const waiting = async () =>
    (
      await sql<{ n: number }>`
        select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(db)
    ).rows[0]?.n ?? 0;

  /**
   * Another pull request #12 stored under the name the move goes to, in a transaction still open:
   * the move's check cannot see it, and its update waits on the unique key until the commit.
   */
  async function storedAtThatMoment() {
    const n = githubId();
    const pr = await opened(`acme/lib-${n}`, `acme/lib-${n}`, `https://github.com/acme/lib-${n}/pull/12`);
    const held = await db.startTransaction().execute();
    const url = `https://github.com/acme/web-${n}/pull/12`;
    const holder = await opened(`acme/web-${n}`, `acme/web-${n}`, url, held);
    const to = { repoFullName: `acme/web-${n}`, headRepoFullName: `acme/web-${n}` };
    /** Commits the other pull request once the move waits on it, then answers how the move ended. */
    const settle = async <T>(moving: Promise<T>) => {
      const ended = moving.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      try {
        await expect.poll(waiting, { timeout: 5000 }).toBeGreaterThan(0);
      } finally {
        await held.commit().execute();
      }
      return ended;
    };
    return { pr, holder, to, before: await names(pr.id), settle };
  }

  it("keeps its names when another pull request is stored under the new name and number at that moment", async () => {
    const s = await storedAtThatMoment();
    expect(await s.settle(pullRequests.followNames(db, s.pr, s.to))).toEqual({ value: s.before });
    expect(await names(s.pr.id)).toEqual(s.before);
    expect(await names(s.holder.id)).toMatchObject({ repo_full_name: s.to.repoFullName });
  });

  it("keeps its names inside a rename's transaction, whose other writes still stand", async () => {
    const s = await storedAtThatMoment();
    const renaming = db.transaction().execute(async (trx) => {
      const kept = await pullRequests.followNames(trx, s.pr, s.to);
      await trx.updateTable("pull_requests").set({ title: "Fix #5 (renamed)" }).where("id", "=", s.pr.id).execute();
      return kept;
    });
    expect(await s.settle(renaming)).toEqual({ value: s.before });
    expect(await names(s.pr.id)).toEqual(s.before);
    const { title } = await db
      .selectFrom("pull_requests")
      .select("title")
      .where("id", "=", s.pr.id)
      .executeTakeFirstOrThrow();
    expect(title).toBe("Fix #5 (renamed)");
  });

  it("moves one of two pull requests moved onto the same name and number at once, and keeps the other", async () => {
    for (let round = 0; round < 5; round++) {
      const n = githubId();
      const a = await opened(`acme/a-${n}`, `acme/a-${n}`, `https://github.com/acme/a-${n}/pull/12`);
      const b = await opened(`acme/b-${n}`, `acme/b-${n}`, `https://github.com/acme/b-${n}/pull/12`);
      const to = { repoFullName: `acme/c-${n}`, headRepoFullName: `acme/c-${n}` };
      const answers = await Promise.all([
        db.transaction().execute((trx) => pullRequests.followNames(trx, a, to)),
        pullRequests.followNames(db, b, to),
      ]);
      const rows = [await names(a.id), await names(b.id)];
      expect(answers).toEqual(rows);
      // One moved, the other kept its own name.
      expect([
        [to.repoFullName, b.repo_full_name],
        [a.repo_full_name, to.repoFullName],
      ]).toContainEqual(rows.map((r) => r.repo_full_name));
    }
  });
});
