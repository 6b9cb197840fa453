import { describe, expect, it } from "vitest";
import { Migrator, sql, type Migration } from "kysely";
import { createTestDatabase, insertIssue } from "../test/testing";
import { createDb } from "./client";
import { migrateToLatest } from "./migrate";
import { ensureDatabase } from "./database";
import { MIGRATIONS } from "./migrations.index";
import * as githubRepositories from "./repositories/github-repositories.repository";
import { selectIssues } from "./repositories/issues.reads";
import { selectPullRequests } from "./repositories/pull-requests.repository";
import { inject } from "vitest";

describe("migrations", () => {
  it("bring an empty database up to the whole schema", async () => {
    const url = await ensureDatabase(inject("pgAdminUrl"), `empty_${Date.now()}`);
    const result = await migrateToLatest(url);
    expect(result.results?.length).toBeGreaterThan(0);
    const db = createDb(url);
    const tables = await sql<{
      table_name: string;
    }>`select table_name from information_schema.tables where table_schema = 'public'`.execute(db);
    const names = tables.rows.map((r) => r.table_name);
    for (const t of [
      "users",
      "sessions",
      "issues",
      "solve_runs",
      "run_steps",
      "solutions",
      "pull_requests",
      "payments",
      "webhook_events",
    ]) {
      expect(names).toContain(t);
    }
    await db.destroy();
  });

  it("run twice at once without failing, and then again as a no-op", async () => {
    const url = await ensureDatabase(inject("pgAdminUrl"), `concurrent_${Date.now()}`);
    const [a, b] = await Promise.all([migrateToLatest(url), migrateToLatest(url)]);
    const applied = [...(a.results ?? []), ...(b.results ?? [])].filter((r) => r.status === "Success");
    // each migration applied by exactly one of the two runs
    const names = applied.map((r) => r.migrationName);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names).size).toBe(names.length);
    const again = await migrateToLatest(url);
    expect(again.results).toEqual([]);
  });

  it("enforce one open run per issue", async () => {
    const { db } = await createTestDatabase();
    const user = await db
      .insertInto("users")
      .values({ github_id: 1, username: "u" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const issue = await insertIssue(db, user.id, { repo: "a/b", number: 1 });
    const run = { user_id: user.id, issue_id: issue.id, model_id: "m", input: "{}" };
    await db.insertInto("solve_runs").values(run).execute();
    await expect(db.insertInto("solve_runs").values(run).execute()).rejects.toThrow(/solve_runs_one_open_per_issue/);
  });

  it("key a database's repositories, issues and pull requests by GitHub id", async () => {
    const url = await ensureDatabase(inject("pgAdminUrl"), `github_ids_${Date.now()}`);
    const db = createDb(url, { max: 2 });
    try {
      await migrateTo(db, "2026-11-29T17-00-solution-job-claims");
      const legacy = await seedNamedRows(db);

      await migrateToLatest(url);
      // The synced repository's issue and pull request take its id; the names it never synced
      // (an imported issue's upstream and fork) each get one placeholder with a negative id.
      const issues = await selectIssues(db)
        .where("issues.user_id", "=", legacy.userId)
        .orderBy("issue_number")
        .execute();
      expect(issues.map((i) => [i.issue_number, i.repo_full_name, i.upstream_full_name, i.fork_full_name])).toEqual([
        [1, "octocat/todo-api", null, null],
        [2, "upstream/lib", "upstream/lib", "octocat/lib"],
        [3, "octocat/gone-app", null, null],
      ]);
      expect(issues[0]?.repository_github_id).toBe("4242");
      expect(Number(issues[1]?.repository_github_id)).toBeLessThan(0);
      expect(Number(issues[1]?.fork_github_id)).toBeLessThan(0);
      expect(issues[1]?.fork_github_id).not.toBe(issues[1]?.repository_github_id);
      // An issue of a repository the sync had removed keeps that as its access row, left.
      expect(issues[2]?.repository_left_at).toEqual(legacy.leftAt);
      const pulls = () =>
        selectPullRequests(db).where("pull_requests.user_id", "=", legacy.userId).orderBy("pr_number").execute();
      expect((await pulls()).map((p) => [p.pr_number, p.base_github_id, p.head_github_id])).toEqual([
        [7, "4242", "4242"],
        [8, issues[1]?.repository_github_id, issues[1]?.fork_github_id],
      ]);
      expect((await pulls()).map((p) => [p.repo_full_name, p.head_repo_full_name, p.html_url])).toEqual([
        ["octocat/todo-api", "octocat/todo-api", "https://github.com/octocat/todo-api/pull/7"],
        ["upstream/lib", "octocat/lib", "https://github.com/upstream/lib/pull/8"],
      ]);

      // GitHub shows the upstream under its real id: the placeholder takes it, and the rows naming it follow.
      await githubRepositories.upsert(db, { github_id: 9001, full_name: "Upstream/lib" });
      const imported = await selectIssues(db).where("issues.issue_number", "=", 2).executeTakeFirstOrThrow();
      expect([imported.repository_github_id, imported.repo_full_name]).toEqual(["9001", "Upstream/lib"]);
      expect((await pulls())[1]?.base_github_id).toBe("9001");
      const named = await db
        .selectFrom("github_repositories")
        .select("github_id")
        .where(sql<string>`lower(full_name)`, "=", "upstream/lib")
        .execute();
      expect(named).toEqual([{ github_id: "9001" }]);
    } finally {
      await db.destroy();
    }
  });
});

/** Brings the database to migration `name` (and no further). */
async function migrateTo(db: ReturnType<typeof createDb>, name: string): Promise<void> {
  const provider = {
    getMigrations: async () =>
      Object.fromEntries(
        await Promise.all(Object.entries(MIGRATIONS).map(async ([n, load]) => [n, await load()] as const)),
      ) as Record<string, Migration>,
  };
  const result = await new Migrator({ db, provider }).migrateTo(name);
  if (result.error) throw result.error;
}

/**
 * Rows as they were stored before GitHub ids were kept: a synced repository with an issue and a
 * pull request, an imported issue (upstream and fork never synced) with its pull request, and an
 * issue of a repository the sync removed.
 */
async function seedNamedRows(db: ReturnType<typeof createDb>) {
  const leftAt = new Date("2026-11-20T10:00:00Z");
  const { rows: users } = await sql<{ id: string }>`insert into users (github_id, username)
    values (5150, 'legacy') returning id`.execute(db);
  const userId = users[0]?.id ?? "";
  await sql`insert into repositories (user_id, github_id, owner, name, full_name, html_url)
    values (${userId}, 4242, 'octocat', 'todo-api', 'octocat/todo-api', 'https://github.com/octocat/todo-api')`.execute(
    db,
  );
  const issue = async (n: number, repo: string, extra: { upstream?: string; fork?: string; leftAt?: Date } = {}) => {
    const { rows } = await sql<{ id: string }>`insert into issues
        (user_id, repo_full_name, issue_number, title, html_url, labels, assignees, is_imported,
         upstream_full_name, fork_full_name, repository_left_at)
      values (${userId}, ${repo}, ${n}, 'A bug', ${`https://github.com/${repo}/issues/${n}`}, '[]', '[]',
        ${extra.upstream !== undefined}, ${extra.upstream ?? null}, ${extra.fork ?? null}, ${extra.leftAt ?? null})
      returning id`.execute(db);
    return rows[0]?.id ?? "";
  };
  const pull = async (issueId: string, n: number, base: string, head: string) => {
    const { rows } = await sql<{ id: string }>`insert into solutions
        (user_id, issue_id, status, analysis, proposed_solution, ai_model, confidence, files_changed, metadata)
      values (${userId}, ${issueId}, 'approved', 'a', 'p', 'm', 80, '[]', '{}') returning id`.execute(db);
    await sql`insert into pull_requests (user_id, solution_id, issue_id, repo_full_name, head_repo_full_name,
        pr_number, title, branch_name, base_branch, html_url, metadata)
      values (${userId}, ${rows[0]?.id ?? ""}, ${issueId}, ${base}, ${head}, ${n}, 'Fix', 'fixloop/issue-1', 'main',
        ${`https://github.com/${base}/pull/${n}`}, '{}')`.execute(db);
  };
  await pull(await issue(1, "octocat/todo-api"), 7, "octocat/todo-api", "octocat/todo-api");
  await pull(
    await issue(2, "upstream/lib", { upstream: "upstream/lib", fork: "octocat/lib" }),
    8,
    "upstream/lib",
    "octocat/lib",
  );
  await issue(3, "octocat/gone-app", { leftAt });
  return { userId, leftAt };
}
