import { sql, type Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import type { Database } from "../schema";
import { createTestDatabase, insertPullRequest, insertUser, seedSolution } from "../../test/testing";
import * as pullRequests from "./pull-requests.repository";

const { db } = await createTestDatabase();

let ids = 0;
const githubId = () => 9_100_000 + ++ids;

describe("a pull request's repositories found renamed when a revision is pushed", () => {
  async function opened(base: string, head: string, htmlUrl: string, conn: Kysely<Database> = db) {
    const userId = await insertUser(db);
    const seeded = await seedSolution(db, { userId, repoFullName: base, issueNumber: 5, files: [] });
    return insertPullRequest(conn, {
      userId,
      solutionId: seeded.solutionId,
      issueId: seeded.issueId,
      base,
      head,
      htmlUrl,
    });
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
