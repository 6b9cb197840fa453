import { sql, type Kysely } from "kysely";
import { BACKTEST_INTERRUPTED } from "@fixloop/contract";
import type { Database } from "../schema";
import type { Conn } from "./conn";
import { runSpent } from "./costs.repository";
import { holdBacktestClaim } from "./backtests.repository";
import { ClaimLost, releaseClaim, runIdOf, type RunRef } from "./runs.claims";
import { load, loadExisting } from "./runs.reads";
import { claim, completeWithoutSolution, end } from "./runs.repository";
import { start, type StartOutcome } from "./runs.start";

/**
 * The user's row of a past (closed) issue a backtest solves: the one the issue sync stored, else
 * one written as that sync would write it (closed), so its runs have an issue. An existing row is
 * never changed.
 */
export async function pastIssueId(
  db: Conn,
  i: {
    userId: string;
    repositoryId: string;
    fullName: string;
    number: number;
    title: string;
    body: string;
    htmlUrl: string;
  },
): Promise<string> {
  const { github_id: repositoryGithubId } = await db
    .selectFrom("repositories")
    .select("github_id")
    .where("id", "=", i.repositoryId)
    .executeTakeFirstOrThrow();
  const find = () =>
    db
      .selectFrom("issues")
      .select("id")
      .where("user_id", "=", i.userId)
      .where("repository_github_id", "=", repositoryGithubId)
      .where("issue_number", "=", i.number)
      .executeTakeFirst();
  const found = await find();
  if (found) return found.id;
  await db
    .insertInto("issues")
    .values({
      user_id: i.userId,
      repository_id: i.repositoryId,
      repository_github_id: repositoryGithubId,
      issue_number: i.number,
      title: i.title,
      body: i.body,
      html_url: i.htmlUrl,
      state: "closed",
      status: "closed",
    })
    .onConflict((oc) => oc.columns(["user_id", "repository_github_id", "issue_number"]).doNothing())
    .execute();
  return (await find())?.id ?? Promise.reject(new Error(`issue ${i.fullName}#${i.number} could not be stored`));
}

/** Why a backtest's solve was not started: the plan's quota is used up, or the backtest is no longer running. */
export type SolveStart = { runId: string } | { refused: "quota" | "ended" };

/** Refuses the start inside its transaction: the backtest is no longer running. */
class BacktestNotRunning extends Error {}

/**
 * Starts a backtest's solve of one past issue through the one run start (`runs.start`: one unit of
 * the plan's quota reserved, the run inserted with backtest `backtestId` as its origin), then
 * claims it for the backtest's worker. Refused (nothing written) when the quota is used up, or
 * when the backtest is no longer running: a run started after its end would be left with nothing
 * to end it. A backtest solve of the issue still active was left by a backtest attempt that
 * stopped (one backtest per repository runs at a time): it ends failed (BACKTEST_INTERRUPTED), its
 * quota unit given back, and the issue is solved anew.
 */
export async function startSolveRun(
  db: Kysely<Database>,
  r: {
    userId: string;
    issueId: string;
    modelId: string;
    candidates: number;
    backtestId: string;
    /** The backtest's claim: the run carries it (see runs.claims); ClaimLost when the backtest no longer does. */
    token?: string;
  },
): Promise<SolveStart> {
  for (let left = 0; left < 2; left++) {
    let outcome: StartOutcome;
    try {
      outcome = await start(db, async (trx) => {
        // Held until commit: an end of the backtest waits for this run to be in, then ends it too.
        const backtest = await trx
          .selectFrom("repository_backtests")
          .select(["status", "claim_token"])
          .where("id", "=", r.backtestId)
          .forShare()
          .executeTakeFirst();
        if (backtest?.status !== "running") throw new BacktestNotRunning();
        if (r.token !== undefined && backtest.claim_token !== r.token) throw new ClaimLost(r.backtestId);
        return {
          userId: r.userId,
          issueId: r.issueId,
          modelId: r.modelId,
          kind: "backtest",
          backtestId: r.backtestId,
          input: r.candidates > 1 ? { candidates: r.candidates } : {},
        };
      });
    } catch (err) {
      if (err instanceof BacktestNotRunning) return { refused: "ended" };
      throw err;
    }
    if (outcome.status === "over_quota") return { refused: "quota" };
    if (outcome.status === "started") return claimSolve(db, outcome.runId, r);
    const active = await load(db, outcome.runId);
    if (active?.kind !== "backtest") throw new Error("The issue has a run under way");
    await end(db, active, "failed", BACKTEST_INTERRUPTED);
  }
  throw new Error("The issue's earlier backtest solve could not be ended");
}

/**
 * Claims a backtest's new solve run with the backtest's claim. Nothing is left to solve it for when
 * it ended with its backtest since its start. The backtest's claim is looked at again once the run
 * carries it: a worker that lost the backtest's job meanwhile gives the run's claim up (its
 * lock-lost handler, see backtest.processor, may have looked for the run before it was claimed).
 */
async function claimSolve(db: Kysely<Database>, runId: string, r: { backtestId: string; token?: string }) {
  if (!(await claim(db, runId, r.token))) return { refused: "ended" as const };
  if (r.token !== undefined) {
    const held = { runId, token: r.token };
    await holdBacktestClaim(db, r.backtestId, r.token).catch(async (err: unknown) => {
      await releaseClaim(db, held);
      throw err;
    });
  }
  return { runId };
}

/**
 * Ends a backtest solve through the run's own ends: completed (its quota unit charged) when the
 * model answered, else failed with the reason (its unit given back); a run that already ended
 * (with its backtest) keeps that end. Answers its cost as the ledger has it.
 */
export async function endSolveRun(
  db: Kysely<Database>,
  ref: RunRef,
  outcome: { error: { code: string; message: string } | null },
): Promise<number> {
  const runId = runIdOf(ref);
  if (outcome.error)
    await end(db, await loadExisting(db, runId), "failed", outcome.error, typeof ref === "string" ? undefined : ref);
  else await completeWithoutSolution(db, ref);
  return runSpent(db, runId);
}
