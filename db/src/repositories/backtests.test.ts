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
    localized: LOCALIZED,
  });
  if (!("runId" in started)) throw new Error(`solve refused: ${started.refused}`);
  return started.runId;
}

/** The run's processor ends it completed: claimed, then completed without a solution. */
async function complete(runId: string) {
  const token = crypto.randomUUID();
  expect(await runs.claim(db, runId, token)).not.toBeNull();
  expect(await runs.completeWithoutSolution(db, { runId, token })).toBe(true);
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
    await complete(done);
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
    // Another backtest's solve, still queued, is its own.
    expect(await solveRun(elsewhere)).toMatchObject({ status: "queued", quota_state: "reserved" });
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
    // The processor solving it ends it late: the run keeps its end, nothing is charged or given back again.
    expect(await runs.completeWithoutSolution(db, left)).toBe(false);
    const late = { code: "run.failed", message: "late" };
    expect(await runs.end(db, await runs.loadExisting(db, left), "failed", late)).toBe(false);
    expect(await solveRun(left)).toEqual(ENDED);
    // Flagged for cancellation too: the worker solving it stops at its next look, spending nothing more.
    expect(await runs.cancelReasonOf(db, left)).toEqual({ code: ENDED.error_code, message: ENDED.error_message });
    expect(await used(b.userId)).toBe(0);
  });
});

describe("a backtest's solve is a run of the one run engine", () => {
  it("is started queued by the run start with its backtest as origin, only under the backtest's claim", async () => {
    const b = await solving(1);
    const token = crypto.randomUUID();
    await db.updateTable("repository_backtests").set({ claim_token: token }).where("id", "=", b.id).execute();
    const started = await backtestSolves.startSolveRun(db, { ...solveOf(b), issueId: b.issueIds[0]!, token });
    if (!("runId" in started)) throw new Error(`solve refused: ${started.refused}`);
    expect(started.adopted).toBe(false);
    // Stored with its steps 1–3 as the backtest localized them, in the start's commit: its processor starts after them.
    const stored = await db
      .selectFrom("run_steps")
      .select(["step", "status", "output"])
      .where("run_id", "=", started.runId)
      .orderBy("step")
      .execute();
    expect(stored).toEqual(
      ["analyzing", "context", "dependencies"].map((step) => ({
        step,
        status: "completed",
        output: { localizedBy: "test" },
      })),
    );
    // Its own job claims it as any run's (see run.processor): it carries none of the backtest's claim.
    expect(await runs.load(db, started.runId)).toMatchObject({
      kind: "backtest",
      backtest_id: b.id,
      status: "queued",
      claim_token: null,
      attempts: 0,
      quota_state: "reserved",
      solution_id: null,
    });
    // Another claim than the backtest's (another worker holds it now) starts nothing.
    await expect(
      backtestSolves.startSolveRun(db, { ...solveOf(b), issueId: b.issueIds[0]!, token: crypto.randomUUID() }),
    ).rejects.toThrow(/claim_lost/);
    expect(await runsOf(b.id)).toHaveLength(1);
    expect(await used(b.userId)).toBe(1);
    // A start refused stores no step: the steps go in with the run or not at all.
    const count = async () =>
      (
        await db
          .selectFrom("run_steps")
          .select((eb) => eb.fn.countAll<string>().as("n"))
          .executeTakeFirstOrThrow()
      ).n;
    const before = await count();
    await db.updateTable("repository_backtests").set({ status: "done" }).where("id", "=", b.id).execute();
    expect(await backtestSolves.startSolveRun(db, { ...solveOf(b), issueId: b.issueIds[0]!, token })).toEqual({
      refused: "ended",
    });
    expect(await count()).toBe(before);
  });

  it("answers the issue's solve an earlier attempt of the same backtest left going, paying once", async () => {
    const b = await solving(1);
    const left = await startSolve(b, b.issueIds[0]!);
    expect(await runs.claim(db, left)).not.toBeNull();
    const again = await backtestSolves.startSolveRun(db, { ...solveOf(b), issueId: b.issueIds[0]! });
    expect(again).toEqual({ runId: left, adopted: true });
    expect(await solveRun(left)).toMatchObject({ status: "running", quota_state: "reserved" });
    expect(await runsOf(b.id)).toHaveLength(1);
    expect(await used(b.userId)).toBe(1);
  });

  it("ends the run another backtest left on the issue as interrupted, its unit given back, and solves the issue anew", async () => {
    const earlier = await solving(1);
    const left = await startSolve(earlier, earlier.issueIds[0]!);
    // The earlier backtest ended without ending its run (as a worker of an older version left it).
    await db.updateTable("repository_backtests").set({ status: "failed" }).where("id", "=", earlier.id).execute();
    const b = await backtests.start(db, { repositoryId: earlier.repositoryId, userId: earlier.userId, requested: 1 });
    if (!b) throw new Error("no backtest started");
    expect(await backtests.begin(db, b.id)).toBe(true);
    const again = await startSolve({ id: b.id, userId: earlier.userId }, earlier.issueIds[0]!);
    expect(again).not.toBe(left);
    expect(await solveRun(left)).toEqual({
      status: "failed",
      error_code: "backtest.interrupted",
      error_message: "The backtest stopped",
      quota_state: "released",
    });
    expect(await solveRun(again)).toMatchObject({ status: "queued", quota_state: "reserved" });
    expect(await used(earlier.userId)).toBe(1);
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

  it("is not stopped with its issue nor resumed after a cap stop: it follows its backtest", async () => {
    const b = await solving(1);
    const runId = await startSolve(b, b.issueIds[0]!);
    const issue = await db
      .updateTable("issues")
      .set({ gone: "deleted" })
      .where("id", "=", b.issueIds[0]!)
      .returning(["user_id", "repository_github_id", "issue_number"])
      .executeTakeFirstOrThrow();
    // Its repository left the user's list too: the access row says so.
    const left = await db
      .updateTable("repositories")
      .set({ left_at: new Date() })
      .where("user_id", "=", issue.user_id)
      .where("github_id", "=", issue.repository_github_id)
      .executeTakeFirst();
    expect(Number(left.numUpdatedRows)).toBe(1);
    expect(await runs.activeOfGoneIssue(db, issue.repository_github_id, issue.issue_number)).toEqual([]);
    expect(await runs.activeOfLeftRepositories(db, b.userId)).toEqual([]);
    const cap = { code: "cost.run_cap", message: "The run's cost cap was reached" };
    expect(await runs.end(db, await runs.loadExisting(db, runId), "failed", cap)).toBe(true);
    const period = await currentUsagePeriod(db, b.userId);
    expect(await db.transaction().execute((trx) => runs.requeueCapStop(trx, runId, period.periodStart))).toBe(false);
    expect(await solveRun(runId)).toMatchObject({ status: "failed", error_code: "cost.run_cap" });
  });
});

const LOCALIZED = (["analyzing", "context", "dependencies"] as const).map((step) => ({
  step,
  detail: { files: [], info: [`${step} at the base commit`], warnings: [] },
  output: { localizedBy: "test" },
}));
const solveOf = (b: { id: string; userId: string }) => ({
  userId: b.userId,
  modelId: "llama-3.3-70b-versatile",
  candidates: 1,
  backtestId: b.id,
  localized: LOCALIZED,
});
const runsOf = (backtestId: string) =>
  db.selectFrom("solve_runs").select("id").where("backtest_id", "=", backtestId).execute();
