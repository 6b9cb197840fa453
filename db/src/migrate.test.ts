import { describe, expect, it } from "vitest";
import { sql } from "kysely";
import { createTestDatabase } from "../test/testing";
import { createDb } from "./client";
import { migrateToLatest } from "./migrate";
import { ensureDatabase } from "./database";
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
    const issue = await db
      .insertInto("issues")
      .values({
        user_id: user.id,
        repo_full_name: "a/b",
        issue_number: 1,
        title: "t",
        html_url: "https://github.com/a/b/issues/1",
        labels: "[]",
        assignees: "[]",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const run = { user_id: user.id, issue_id: issue.id, model_id: "m", input: "{}" };
    await db.insertInto("solve_runs").values(run).execute();
    await expect(db.insertInto("solve_runs").values(run).execute()).rejects.toThrow(/solve_runs_one_open_per_issue/);
  });
});
