import { describe, expect, it } from "vitest";
import { createTestDatabase, insertUser } from "../../test/testing";
import * as backtests from "./backtests.repository";

const { db } = await createTestDatabase();

async function queued(opts: { createdMinutesAgo?: number } = {}) {
  const userId = await insertUser(db);
  const repo = await db
    .insertInto("repositories")
    .values({
      user_id: userId,
      github_id: Math.floor(Math.random() * 1e9),
      owner: "octocat",
      name: "todo-api",
      full_name: "octocat/todo-api",
      html_url: "https://github.com/octocat/todo-api",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const b = await backtests.start(db, { repositoryId: repo.id, userId, requested: 5 });
  if (!b) throw new Error("no backtest started");
  if (opts.createdMinutesAgo)
    await db
      .updateTable("repository_backtests")
      .set({ created_at: new Date(Date.now() - opts.createdMinutesAgo * 60_000) })
      .where("id", "=", b.id)
      .execute();
  return { id: b.id, repositoryId: repo.id };
}

const row = (id: string) =>
  db
    .selectFrom("repository_backtests")
    .select(["status", "error", "checked", "found"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
const progress = (checked: number): backtests.BacktestProgress => ({
  found: 5,
  checked,
  foundAt1: 0,
  foundAt5: 0,
  issues: [],
});
const HOUR = 60 * 60_000;

describe("a backtest ended as not finishing in time", () => {
  it("stops its worker at the next progress and keeps its end, though the worker runs on", async () => {
    const b = await queued();
    expect(await backtests.begin(db, b.id)).toBe(true);
    expect(await backtests.progress(db, b.id, progress(1))).toBe(true);
    // Expired (a new backtest was asked for after the limit): the worker still holds it.
    await db
      .updateTable("repository_backtests")
      .set({ started_at: new Date(Date.now() - 2 * HOUR) })
      .where("id", "=", b.id)
      .execute();
    await backtests.expireStale(db, b.repositoryId, HOUR);
    const expired = await row(b.id);
    expect(expired).toEqual({ status: "failed", error: "The backtest did not finish in time", checked: 1, found: 5 });

    expect(await backtests.progress(db, b.id, progress(2))).toBe(false);
    await backtests.finish(db, b.id, { error: null });
    expect(await row(b.id)).toEqual(expired);
  });

  it("is not started by a worker that takes its job late", async () => {
    const b = await queued({ createdMinutesAgo: 120 });
    await backtests.expireStale(db, b.repositoryId, HOUR);
    expect(await backtests.begin(db, b.id)).toBe(false);
    expect((await row(b.id)).status).toBe("failed");
  });

  it("is aged from its start when it runs, not from the time it waited in the queue", async () => {
    const b = await queued({ createdMinutesAgo: 90 });
    expect(await backtests.begin(db, b.id)).toBe(true);
    await backtests.expireStale(db, b.repositoryId, HOUR);
    expect((await row(b.id)).status).toBe("running");
  });
});
