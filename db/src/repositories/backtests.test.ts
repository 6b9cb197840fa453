import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createTestDatabase, insertUser } from "../../test/testing";
import { currentUsagePeriod, usedInPeriod } from "./usage.repository";
import * as backtests from "./backtests.repository";
import * as backtestSolves from "./backtests.solves";
import * as repositories from "./repositories.repository";
import * as runs from "./runs";

const { db } = await createTestDatabase();

async function queued(opts: { createdMinutesAgo?: number; solve?: boolean } = {}) {
  const userId = await insertUser(db);
  const repo = await repositories.upsertSynced(db, userId, {
    github_id: Math.floor(Math.random() * 1e9),
    owner: "octocat",
    name: "todo-api",
    full_name: "octocat/todo-api",
    description: null,
    is_private: false,
    is_fork: false,
    language: null,
    html_url: "https://github.com/octocat/todo-api",
    default_branch: "main",
    permission: "admin",
  });
  const b = await backtests.start(db, { repositoryId: repo.id, userId, requested: 5, solve: opts.solve });
  if (!b) throw new Error("no backtest started");
  if (opts.createdMinutesAgo)
    await db
      .updateTable("repository_backtests")
      .set({ created_at: new Date(Date.now() - opts.createdMinutesAgo * 60_000) })
      .where("id", "=", b.id)
      .execute();
  return { id: b.id, repositoryId: repo.id, userId };
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
/** Limits of an hour, for a backtest that solves too. */
const hour = { maxAgeMs: HOUR, solveMaxAgeMs: HOUR };

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
    await backtests.expireStale(db, { repositoryId: b.repositoryId }, hour);
    const expired = await row(b.id);
    expect(expired).toEqual({ status: "failed", error: "The backtest did not finish in time", checked: 1, found: 5 });

    expect(await backtests.progress(db, b.id, progress(2))).toBe(false);
    await backtests.finish(db, b.id, { error: null });
    expect(await row(b.id)).toEqual(expired);
  });

  it("is not started by a worker that takes its job late", async () => {
    const b = await queued({ createdMinutesAgo: 120 });
    await backtests.expireStale(db, { repositoryId: b.repositoryId }, hour);
    expect(await backtests.begin(db, b.id)).toBe(false);
    expect((await row(b.id)).status).toBe("failed");
  });

  it("is aged from its start when it runs, not from the time it waited in the queue", async () => {
    const b = await queued({ createdMinutesAgo: 90 });
    expect(await backtests.begin(db, b.id)).toBe(true);
    await backtests.expireStale(db, { repositoryId: b.repositoryId }, hour);
    expect((await row(b.id)).status).toBe("running");
  });
});

/** A running solving backtest with `n` past issues stored for it to solve. */
async function solving(n: number) {
  const b = await queued({ solve: true });
  expect(await backtests.begin(db, b.id)).toBe(true);
  const issueIds: string[] = [];
  for (let number = 1; number <= n; number++)
    issueIds.push(
      await backtestSolves.pastIssueId(db, {
        userId: b.userId,
        repositoryId: b.repositoryId,
        fullName: "octocat/todo-api",
        number,
        title: `past issue ${number}`,
        body: "",
        htmlUrl: `https://github.com/octocat/todo-api/issues/${number}`,
      }),
    );
  return { ...b, issueIds };
}

async function startSolve(b: { id: string; userId: string }, issueId: string) {
  const started = await backtestSolves.startSolveRun(db, {
    userId: b.userId,
    issueId,
    modelId: "llama-3.3-70b-versatile",
    candidates: 1,
    backtestId: b.id,
  });
  if (!("runId" in started)) throw new Error(`solve refused: ${started.refused}`);
  return started.runId;
}

const used = async (userId: string) => usedInPeriod(db, userId, (await currentUsagePeriod(db, userId)).periodStart);
const solveRun = (id: string) =>
  db
    .selectFrom("solve_runs")
    .select(["status", "error_code", "error_message", "quota_state"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
const ENDED = {
  status: "failed",
  error_code: "backtest.ended",
  error_message: "The backtest ended before this solve finished",
  quota_state: "released",
};

describe("a backtest's solve left running by a worker that stopped", () => {
  it("ends when the backtest is ended as not finishing in time, its quota unit given back; finished solves keep theirs", async () => {
    const b = await solving(2);
    const other = await solving(1);
    const done = await startSolve(b, b.issueIds[0]!);
    await backtestSolves.endSolveRun(db, done, { error: null });
    const left = await startSolve(b, b.issueIds[1]!);
    const elsewhere = await startSolve(other, other.issueIds[0]!);
    expect(await used(b.userId)).toBe(2);
    await db
      .updateTable("repository_backtests")
      .set({ started_at: new Date(Date.now() - 2 * HOUR) })
      .where("id", "=", b.id)
      .execute();

    await backtests.expireStale(db, { repositoryId: b.repositoryId }, hour);
    expect((await row(b.id)).status).toBe("failed");
    expect(await solveRun(left)).toEqual(ENDED);
    // The finished solve keeps its charge: the period counts what the backtest did.
    expect(await solveRun(done)).toMatchObject({ status: "completed", quota_state: "charged" });
    expect(await used(b.userId)).toBe(1);
    // Another backtest's solve, still running, is its own.
    expect(await solveRun(elsewhere)).toMatchObject({ status: "running", quota_state: "reserved" });
    expect(await used(other.userId)).toBe(1);
    // No solve starts for a backtest that ended: none would be left to end it.
    expect(await backtestSolves.startSolveRun(db, { ...solveOf(b), issueId: b.issueIds[0]! })).toEqual({
      refused: "ended",
    });
    expect(await used(b.userId)).toBe(1);
    expect(await runsOf(b.id)).toHaveLength(2);
  });

  it("gives its quota unit back once, however many times and ways the backtest is ended", async () => {
    const b = await solving(1);
    const left = await startSolve(b, b.issueIds[0]!);
    await db
      .updateTable("repository_backtests")
      .set({ started_at: new Date(Date.now() - 2 * HOUR) })
      .where("id", "=", b.id)
      .execute();
    expect(await used(b.userId)).toBe(1);

    // The time-out, the worker's failure and its finish, all at once, and again after.
    await Promise.all([
      backtests.expireStale(db, { repositoryId: b.repositoryId }, hour),
      backtests.finish(db, b.id, { error: "The backtest failed: GitHub went away" }),
      backtests.finish(db, b.id, { error: null }),
    ]);
    await backtests.finish(db, b.id, { error: "The backtest failed: again" });
    await backtests.expireStale(db, { repositoryId: b.repositoryId }, { maxAgeMs: 0, solveMaxAgeMs: 0 });
    expect(await solveRun(left)).toEqual(ENDED);
    expect(await used(b.userId)).toBe(0);
    // The worker that started the solve ends it late: the run keeps its end, nothing is charged or given back again.
    await backtestSolves.endSolveRun(db, left, { error: null });
    await backtestSolves.endSolveRun(db, left, { error: { code: "backtest.solve_failed", message: "late" } });
    expect(await solveRun(left)).toEqual(ENDED);
    expect(await used(b.userId)).toBe(0);
  });
});

describe("a backtest's solve is a run of the one run engine", () => {
  it("is started by the run start with its backtest as origin, and claimed with the backtest's claim", async () => {
    const b = await solving(1);
    const token = crypto.randomUUID();
    await db.updateTable("repository_backtests").set({ claim_token: token }).where("id", "=", b.id).execute();
    const started = await backtestSolves.startSolveRun(db, { ...solveOf(b), issueId: b.issueIds[0]!, token });
    if (!("runId" in started)) throw new Error(`solve refused: ${started.refused}`);
    expect(await runs.load(db, started.runId)).toMatchObject({
      kind: "backtest",
      backtest_id: b.id,
      status: "running",
      claim_token: token,
      attempts: 1,
      quota_state: "reserved",
      solution_id: null,
    });
    // Another claim than the backtest's starts nothing.
    await expect(
      backtestSolves.startSolveRun(db, { ...solveOf(b), issueId: b.issueIds[0]!, token: crypto.randomUUID() }),
    ).rejects.toThrow(/claim_lost/);
    expect(await runsOf(b.id)).toHaveLength(1);
    expect(await used(b.userId)).toBe(1);
  });

  it("ends the run a stopped attempt left on the issue as interrupted, its unit given back, and starts the issue's solve anew", async () => {
    const b = await solving(1);
    const left = await startSolve(b, b.issueIds[0]!);
    const again = await startSolve(b, b.issueIds[0]!);
    expect(again).not.toBe(left);
    expect(await solveRun(left)).toEqual({
      status: "failed",
      error_code: "backtest.interrupted",
      error_message: "The backtest stopped",
      quota_state: "released",
    });
    expect(await solveRun(again)).toMatchObject({ status: "running", quota_state: "reserved" });
    expect(await used(b.userId)).toBe(1);
  });

  it("does not end or stand beside the issue's own solve or refine run", async () => {
    const b = await solving(1);
    const outcome = await runs.start(db, async () => ({
      userId: b.userId,
      issueId: b.issueIds[0]!,
      modelId: "llama-3.3-70b-versatile",
      kind: "solve",
    }));
    if (outcome.status !== "started") throw new Error(`not started: ${outcome.status}`);
    await expect(startSolve(b, b.issueIds[0]!)).rejects.toThrow(/run under way/);
    expect(await solveRun(outcome.runId)).toMatchObject({ status: "queued", quota_state: "reserved" });
    expect(await runsOf(b.id)).toHaveLength(0);
    expect(await used(b.userId)).toBe(1);
    // Completing without a solution is for a backtest's solve only.
    expect(await runs.claim(db, outcome.runId)).not.toBeNull();
    expect(await runs.completeWithoutSolution(db, outcome.runId)).toBe(false);
    expect(await solveRun(outcome.runId)).toMatchObject({ status: "running", quota_state: "reserved" });
  });

  it("gives the run's claim up when the backtest's claim is lost between the run's start and its claim", async () => {
    const b = await solving(1);
    const token = crypto.randomUUID();
    await db.updateTable("repository_backtests").set({ claim_token: token }).where("id", "=", b.id).execute();
    // The worker's lock lapses (its claim on the backtest given up) just as the run takes its claim.
    await sql`create function lose_backtest_claim() returns trigger language plpgsql as $$
      begin update repository_backtests set claim_token = null where id = new.backtest_id; return new; end $$`.execute(
      db,
    );
    await sql`create trigger lose_backtest_claim before update of claim_token on solve_runs for each row
      when (old.claim_token is null and new.claim_token is not null) execute function lose_backtest_claim()`.execute(
      db,
    );
    try {
      await expect(backtestSolves.startSolveRun(db, { ...solveOf(b), issueId: b.issueIds[0]!, token })).rejects.toThrow(
        /claim_lost/,
      );
    } finally {
      await sql`drop trigger lose_backtest_claim on solve_runs`.execute(db);
      await sql`drop function lose_backtest_claim()`.execute(db);
    }
    const [left] = await runsOf(b.id);
    if (!left) throw new Error("no run started");
    // Left to the worker that takes the backtest over (it ends it as interrupted); this one can end it no more.
    expect(await runs.load(db, left.id)).toMatchObject({
      status: "running",
      claim_token: null,
      quota_state: "reserved",
    });
    const late = { error: { code: "run.cancelled", message: "The run was cancelled" } };
    await expect(backtestSolves.endSolveRun(db, { runId: left.id, token }, late)).rejects.toThrow(/claim_lost/);
  });

  it("is ended by no worker whose claim was given up (its lock on the backtest's job lapsed)", async () => {
    const b = await solving(1);
    const token = crypto.randomUUID();
    await db.updateTable("repository_backtests").set({ claim_token: token }).where("id", "=", b.id).execute();
    const started = await backtestSolves.startSolveRun(db, { ...solveOf(b), issueId: b.issueIds[0]!, token });
    if (!("runId" in started)) throw new Error(`solve refused: ${started.refused}`);
    expect(await runs.activeOfBacktest(db, b.id)).toEqual([started.runId]);
    expect(await runs.releaseClaim(db, { runId: started.runId, token })).toBe(true);

    const claim = { runId: started.runId, token };
    await expect(backtestSolves.endSolveRun(db, claim, { error: null })).rejects.toThrow(/claim_lost/);
    const error = { code: "run.cancelled", message: "The run was cancelled" };
    await expect(backtestSolves.endSolveRun(db, claim, { error })).rejects.toThrow(/claim_lost/);
    expect(await solveRun(started.runId)).toMatchObject({ status: "running", quota_state: "reserved" });
    expect(await used(b.userId)).toBe(1);
  });
});

const solveOf = (b: { id: string; userId: string }) => ({
  userId: b.userId,
  modelId: "llama-3.3-70b-versatile",
  candidates: 1,
  backtestId: b.id,
});
const runsOf = (backtestId: string) =>
  db.selectFrom("solve_runs").select("id").where("backtest_id", "=", backtestId).execute();
