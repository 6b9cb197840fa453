import { beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@fixloop/testkit";
import { jobIds } from "@fixloop/contract";
import { backtests, backtestSolves, repositories } from "@fixloop/db";
import { createTestStack, type SignedIn, type TestStack } from "../../test/stack";
import { until, usedQuota } from "../../test/faults.testkit";
import { LOCALIZED, RUN_ENDED, TIMED_OUT, backtestFailed, backtestRow, runRow } from "../../test/backtests.testkit";

/**
 * Backtests whose job was lost (no worker will end them) and no new backtest asked for: the
 * worker's periodic sweep ends them. The stack's workers serve the sync and backtest queues and no
 * solve queue, as a deployment whose backtests run apart from its solves does, and sweep every second.
 */
let stack: TestStack;

beforeAll(async () => {
  stack = await createTestStack({
    env: { SWEEP_INTERVAL_SECONDS: "1" },
    workers: ["sync", "backtest"],
  });
}, 60_000);

const MINUTE = 60_000;

/** The user's repositories, as listing them stores them: the row id of each full name. */
async function repositoriesOf(me: SignedIn) {
  expect((await stack.app.request("/api/github/repositories", { headers: me.headers })).status).toBe(200);
  const rows = await repositories.selectWithGithub(stack.db).where("repositories.user_id", "=", me.user._id).execute();
  return (fullName: string) => {
    const row = rows.find((r) => r.full_name === fullName);
    if (!row) throw new Error(`no repository ${fullName}`);
    return row.id;
  };
}

/** Puts the backtest's creation, and its start unless it is still queued, `minutesAgo` back. */
async function backdate(id: string, minutesAgo: number, queued = false) {
  const since = new Date(Date.now() - minutesAgo * MINUTE);
  await stack.db
    .updateTable("repository_backtests")
    .set(queued ? { created_at: since } : { created_at: since, started_at: since })
    .where("id", "=", id)
    .execute();
}

/** A backtest of the repository row, running (or queued) since `minutesAgo`, with no job to end it. */
async function leftBacktest(
  me: SignedIn,
  repositoryId: string,
  o: { solve: boolean; minutesAgo: number; queued?: boolean },
) {
  const b = await backtests.start(stack.db, { repositoryId, userId: me.user._id, requested: 1, solve: o.solve });
  if (!b) throw new Error("no backtest started");
  if (!o.queued) expect(await backtests.begin(stack.db, b.id)).toBe(true);
  await backdate(b.id, o.minutesAgo, o.queued);
  return b.id;
}

describe("the worker's sweep of backtests whose job was lost", () => {
  it("ends those past their limit in every repository, with their solve runs, and leaves the others", async () => {
    const octocat = await stack.signIn("octocat", { scopes: ["public_repo"] });
    const hubot = await stack.signIn("hubot", { scopes: ["public_repo"] });
    const mine = await repositoriesOf(octocat);
    const theirs = await repositoriesOf(hubot);
    const before = await usedQuota(stack.db, octocat.user._id);

    // A solving backtest with its solve run left running (it is put five hours back once all are in).
    const stale = await leftBacktest(octocat, mine("octocat/todo-api"), { solve: true, minutesAgo: 0 });
    const issueId = await backtestSolves.pastIssueId(stack.db, {
      userId: octocat.user._id,
      repositoryId: mine("octocat/todo-api"),
      fullName: "octocat/todo-api",
      number: 1,
      title: "past issue",
      body: "",
      htmlUrl: "https://github.com/octocat/todo-api/issues/1",
    });
    const started = await backtestSolves.startSolveRun(stack.db, {
      userId: octocat.user._id,
      issueId,
      modelId: "llama-3.3-70b-versatile",
      candidates: 1,
      backtestId: stale,
      localized: LOCALIZED,
    });
    if (!("runId" in started)) throw new Error(`solve refused: ${started.refused}`);
    expect(await usedQuota(stack.db, octocat.user._id)).toBe(before + 1);
    // Younger than their limits: a solving one running for two hours, another for ten minutes.
    const solving = await leftBacktest(octocat, mine("octocat/url-shortener"), {
      solve: true,
      minutesAgo: 120,
    });
    const fresh = await leftBacktest(octocat, mine("octocat/weather-cli"), {
      solve: false,
      minutesAgo: 10,
    });
    // Another user's repository: queued for forty minutes (its limit is thirty), never taken.
    const elsewhere = await leftBacktest(hubot, theirs("hubot/markdown-lint"), {
      solve: false,
      minutesAgo: 40,
      queued: true,
    });

    // Running for five hours: its limit is four.
    await backdate(stale, 300);

    // No new backtest is asked for anywhere: the sweep alone ends them.
    await until("the other user's stale backtest ended", () => backtestFailed(stack.db, elsewhere), 20_000);
    await until("the stale solving backtest ended", () => backtestFailed(stack.db, stale), 20_000);
    expect(await backtestRow(stack.db, stale)).toEqual(TIMED_OUT);
    expect(await backtestRow(stack.db, elsewhere)).toEqual(TIMED_OUT);
    expect(await runRow(stack.db, started.runId)).toEqual(RUN_ENDED);
    expect(await usedQuota(stack.db, octocat.user._id)).toBe(before);

    // The cards say so.
    const card = async (me: SignedIn, fullName: string) => {
      const res = await stack.app.request(`/api/github/repositories/${fullName}/backtest`, { headers: me.headers });
      expect(res.status).toBe(200);
      return ((await res.json()) as { latest: { id: string; status: string; error: string | null } }).latest;
    };
    expect(await card(octocat, "octocat/todo-api")).toMatchObject({ id: stale, ...TIMED_OUT });
    expect(await card(hubot, "hubot/markdown-lint")).toMatchObject({ id: elsewhere, ...TIMED_OUT });

    // Later sweeps leave the younger ones running and give nothing back again: two more passes that
    // found nothing to fix, then the rows are read.
    const passes = () =>
      stack.logs.filter((l) => l.includes('"reconciler":"stale-backtests"') && l.includes('"fixed":0')).length;
    const seen = passes();
    await eventually(() => passes() >= seen + 2, { timeout: 20_000, interval: 100 });
    expect(await backtestRow(stack.db, solving)).toEqual({ status: "running", error: null });
    expect(await backtestRow(stack.db, fresh)).toEqual({ status: "running", error: null });
    expect(await card(octocat, "octocat/weather-cli")).toMatchObject({ id: fresh, status: "running", error: null });
    expect(await usedQuota(stack.db, octocat.user._id)).toBe(before);
    expect(await runRow(stack.db, started.runId)).toMatchObject({ status: "failed", quota_state: "released" });
  }, 60_000);

  it("queues a backtest's solve run that no job holds, as it queues any run", async () => {
    const octocat = await stack.signIn("octocat", { scopes: ["public_repo"] });
    const mine = await repositoriesOf(octocat);
    const backtestId = await leftBacktest(octocat, mine("octocat/todo-api"), { solve: true, minutesAgo: 0 });
    const issueId = await backtestSolves.pastIssueId(stack.db, {
      userId: octocat.user._id,
      repositoryId: mine("octocat/todo-api"),
      fullName: "octocat/todo-api",
      number: 2,
      title: "another past issue",
      body: "",
      htmlUrl: "https://github.com/octocat/todo-api/issues/2",
    });
    const started = await backtestSolves.startSolveRun(stack.db, {
      userId: octocat.user._id,
      issueId,
      modelId: "llama-3.3-70b-versatile",
      candidates: 1,
      backtestId,
      localized: LOCALIZED,
    });
    if (!("runId" in started)) throw new Error(`solve refused: ${started.refused}`);
    // Its backtest's worker stopped before queuing it (Redis lost the job, or the worker died): a
    // minute on, the sweep finds it unfinished with no job and queues it on the solve queue.
    await stack.db
      .updateTable("solve_runs")
      .set({ created_at: new Date(Date.now() - MINUTE) })
      .where("id", "=", started.runId)
      .execute();
    const job = await eventually(
      async () => (await stack.deps.queues.solve.getJob(jobIds.solve(started.runId))) ?? false,
      {
        timeout: 20_000,
        interval: 100,
      },
    );
    expect(job.data).toEqual({ runId: started.runId });
    expect(await runRow(stack.db, started.runId)).toMatchObject({ status: "queued", quota_state: "reserved" });
    await backtests.finish(stack.db, backtestId, { error: null });
    expect(await runRow(stack.db, started.runId)).toEqual(RUN_ENDED);
  }, 30_000);
});
