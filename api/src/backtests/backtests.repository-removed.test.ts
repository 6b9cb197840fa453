import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { backtests, backtestSolves, repositories, runs } from "@fixloop/db";
import { createTestStack, type SignedIn, type TestStack } from "../../test/stack";
import { until, usedQuota } from "../../test/faults.testkit";
import { LOCALIZED } from "../../test/backtests.testkit";

/**
 * A repository leaves the user's list (the repository sync no longer sees it: access withdrawn on
 * GitHub) while a backtest of it is solving a past issue. No backtest worker runs here: the test
 * plays the backtest's part (start, solve start, its own end) through the same repository calls.
 */
let stack: TestStack;

beforeAll(async () => {
  stack = await createTestStack({ workers: ["sync"], logLevel: "warn" });
}, 60_000);

/** Lists the user's repositories (the sync stores them, marking those GitHub no longer shows as left). */
async function list(me: SignedIn): Promise<string[]> {
  const res = await stack.app.request("/api/github/repositories", { headers: me.headers });
  expect(res.status).toBe(200);
  return ((await res.json()) as { repositories: { fullName: string }[] }).repositories.map((r) => r.fullName);
}

const repositoryId = async (me: SignedIn, fullName: string) =>
  (
    await repositories
      .selectWithGithub(stack.db)
      .where("repositories.user_id", "=", me.user._id)
      .where("g.full_name", "=", fullName)
      .executeTakeFirstOrThrow()
  ).id;

/** A running backtest of the repository with one solve under way, its quota unit reserved. */
async function solvingBacktest(me: SignedIn, fullName: string) {
  const repoId = await repositoryId(me, fullName);
  const b = await backtests.start(stack.db, { repositoryId: repoId, userId: me.user._id, requested: 1, solve: true });
  if (!b) throw new Error("no backtest started");
  expect(await backtests.begin(stack.db, b.id)).toBe(true);
  const issueId = await backtestSolves.pastIssueId(stack.db, {
    userId: me.user._id,
    repositoryId: repoId,
    fullName,
    number: 1,
    title: "A past issue",
    body: "",
    htmlUrl: `https://github.com/${fullName}/issues/1`,
  });
  const started = await backtestSolves.startSolveRun(stack.db, {
    userId: me.user._id,
    issueId,
    modelId: "llama-3.3-70b-versatile",
    candidates: 1,
    backtestId: b.id,
    localized: LOCALIZED,
  });
  if (!("runId" in started)) throw new Error(`solve refused: ${started.refused}`);
  return { backtestId: b.id, runId: started.runId };
}

const runRow = (id: string) =>
  stack.db
    .selectFrom("solve_runs")
    .select(["status", "error_code", "error_message", "quota_state", "backtest_id"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

/** Sessions of this test's database waiting on a lock. */
const waiting = async () =>
  (
    await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(stack.db)
  ).rows[0]?.n ?? 0;

const backtestRow = (id: string) =>
  stack.db
    .selectFrom("repository_backtests")
    .select(["status", "error"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();

const REMOVED = { status: "failed", error: backtests.REPOSITORY_REMOVED };

const ENDED = {
  status: "failed",
  error_code: "backtest.ended",
  error_message: "The backtest ended before this solve finished",
  quota_state: "released",
};

/** An organisation repository `org/name` monalisa reaches through a team, so the team can withdraw it. */
async function teamRepository(org: string, name: string) {
  const gh = stack.github.control;
  gh.createOrganization(org, { defaultPermission: "none" });
  await gh.createRepository(org, name, { private: true });
  gh.addOrgMember(org, "monalisa");
  gh.createTeam(org, "devs", ["monalisa"]);
  gh.addTeamRepository(org, "devs", name, "push");
  return () => gh.removeTeamMember(org, "devs", "monalisa");
}

describe("a repository leaving the list while its backtest solves", () => {
  it("ends the backtest's solve with it and gives the quota unit back, once, also when the solve's own end comes later", async () => {
    const withdraw = await teamRepository("acme", "service");
    const me = await stack.signIn("monalisa", { scopes: ["repo"] });
    expect(await list(me)).toContain("acme/service");
    const before = await usedQuota(stack.db, me.user._id);
    const s = await solvingBacktest(me, "acme/service");
    expect(await usedQuota(stack.db, me.user._id)).toBe(before + 1);

    withdraw();
    expect(await list(me)).not.toContain("acme/service");
    // The user's access row stays, marked as having left the list.
    const access = await stack.db
      .selectFrom("repositories")
      .select("left_at")
      .where("id", "=", await repositoryId(me, "acme/service"))
      .executeTakeFirstOrThrow();
    expect(access.left_at).toBeInstanceOf(Date);
    // The backtest stays with the access row, ended for the repository leaving.
    expect(await backtestRow(s.backtestId)).toEqual(REMOVED);
    expect(await runRow(s.runId)).toEqual({ ...ENDED, backtest_id: s.backtestId });
    expect(await usedQuota(stack.db, me.user._id)).toBe(before);

    // The run's and the backtest's own ends, arriving after (its model answered, then it finished): nothing changes.
    expect(await runs.completeWithoutSolution(stack.db, s.runId)).toBe(false);
    await backtests.finish(stack.db, s.backtestId, { error: null });
    expect(await backtestRow(s.backtestId)).toEqual(REMOVED);
    expect(await runRow(s.runId)).toEqual({ ...ENDED, backtest_id: s.backtestId });
    expect(await usedQuota(stack.db, me.user._id)).toBe(before);
    // A later sync of the same list removes nothing more and gives nothing back again.
    expect(await list(me)).not.toContain("acme/service");
    expect(await usedQuota(stack.db, me.user._id)).toBe(before);
  });

  it("gives the unit back once when the backtest ends at the same moment as its repository leaves", async () => {
    const withdraw = await teamRepository("initech", "billing");
    const me = await stack.signIn("monalisa", { scopes: ["repo"] });
    expect(await list(me)).toContain("initech/billing");
    const before = await usedQuota(stack.db, me.user._id);
    const s = await solvingBacktest(me, "initech/billing");
    expect(await usedQuota(stack.db, me.user._id)).toBe(before + 1);

    // The backtest row is held (as a solve start holds it until it commits): the sync's removal and
    // the backtest's own end both wait on it, then go at once.
    let release = () => {};
    const released = new Promise<void>((r) => (release = r));
    let held = () => {};
    const holding = new Promise<void>((r) => (held = r));
    const holder = stack.db.transaction().execute(async (trx) => {
      await trx.selectFrom("repository_backtests").select("id").where("id", "=", s.backtestId).forShare().execute();
      held();
      await released;
    });
    await holding;
    withdraw();
    let listing: Promise<string[]>;
    let finishing: Promise<void>;
    try {
      listing = list(me);
      finishing = backtests.finish(stack.db, s.backtestId, { error: "The backtest stopped" });
      await until(
        "the removal and the backtest's end to wait on the backtest",
        async () => (await waiting()) >= 2,
        15_000,
        20,
      );
    } finally {
      release();
      await holder;
    }
    const [listed] = await Promise.all([listing, finishing]);
    expect(listed).not.toContain("initech/billing");
    expect(await runRow(s.runId)).toMatchObject(ENDED);
    expect(await usedQuota(stack.db, me.user._id)).toBe(before);
  });
});
