import { sql, type Kysely, type Transaction } from "kysely";
import type { Database } from "../schema";
import type { Conn } from "./conn";
import { ClaimLost, holdClaim, runIdOf, type RunRef } from "./runs.claims";
import { runSpent } from "./costs.repository";
import { runInput } from "./json-columns";
import { syncRunSpend } from "./spend.repository";
import { chargeRunQuota, currentUsagePeriod, releaseRunQuota, reserveQuota } from "./usage.repository";

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
  const find = () =>
    db
      .selectFrom("issues")
      .select("id")
      .where("user_id", "=", i.userId)
      .where(sql<string>`lower(repo_full_name)`, "=", i.fullName.toLowerCase())
      .where("issue_number", "=", i.number)
      .executeTakeFirst();
  const found = await find();
  if (found) return found.id;
  await db
    .insertInto("issues")
    .values({
      user_id: i.userId,
      repository_id: i.repositoryId,
      repo_full_name: i.fullName,
      issue_number: i.number,
      title: i.title,
      body: i.body,
      html_url: i.htmlUrl,
      state: "closed",
      status: "closed",
    })
    .onConflict((oc) => oc.columns(["user_id", "repo_full_name", "issue_number"]).doNothing())
    .execute();
  return (await find())?.id ?? Promise.reject(new Error(`issue ${i.fullName}#${i.number} could not be stored`));
}

/** Why a backtest's solve was not started: the plan's quota is used up, or the backtest is no longer running. */
export type SolveStart = { runId: string } | { refused: "quota" | "ended" };

/**
 * Starts a backtest's solve of one past issue: in one transaction, one unit of the plan's quota is
 * reserved and a `backtest` run of backtest `backtestId` is inserted, running. Refused (nothing
 * written) when the quota is used up, or when the backtest is no longer running: a run started
 * after its end would be left with nothing to end it.
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
  return db.transaction().execute(async (trx): Promise<SolveStart> => {
    // Held until commit: an end of the backtest waits for this run to be in, then ends it too.
    const backtest = await trx
      .selectFrom("repository_backtests")
      .select(["status", "claim_token"])
      .where("id", "=", r.backtestId)
      .forShare()
      .executeTakeFirst();
    if (backtest?.status !== "running") return { refused: "ended" };
    if (r.token !== undefined && backtest.claim_token !== r.token) throw new ClaimLost(r.backtestId);
    // A backtest solve of this issue still running was left by a backtest attempt that died (one
    // backtest per repository runs at a time): it ends failed, its quota unit given back.
    const orphans = await trx
      .updateTable("solve_runs")
      .set({
        status: "failed",
        error_code: "backtest.interrupted",
        error_message: "The backtest stopped",
        finished_at: new Date(),
      })
      .where("issue_id", "=", r.issueId)
      .where("kind", "=", "backtest")
      .where("status", "in", ["queued", "running"])
      .returning("id")
      .execute();
    for (const o of orphans) await releaseRunQuota(trx, o.id);
    const period = await currentUsagePeriod(trx, r.userId);
    const reserved = await reserveQuota(trx, r.userId, period.plan, { periodStart: period.periodStart });
    if (!reserved) return { refused: "quota" };
    const row = await trx
      .insertInto("solve_runs")
      .values({
        user_id: r.userId,
        issue_id: r.issueId,
        backtest_id: r.backtestId,
        model_id: r.modelId,
        kind: "backtest",
        status: "running",
        input: runInput.write(r.candidates > 1 ? { candidates: r.candidates } : {}),
        quota_state: "reserved",
        quota_period_start: reserved.periodStart,
        started_at: new Date(),
        attempts: 1,
        claim_token: r.token ?? null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { runId: row.id };
  });
}

/**
 * Ends a backtest solve: completed (its quota unit charged) when the model answered, else failed
 * with the reason (its unit given back). Answers its cost as the ledger has it.
 */
export async function endSolveRun(
  db: Kysely<Database>,
  ref: RunRef,
  outcome: { error: { code: string; message: string } | null },
): Promise<number> {
  const runId = runIdOf(ref);
  await db.transaction().execute(async (trx) => {
    await holdClaim(trx, ref);
    await syncRunSpend(trx, runId);
    await trx
      .updateTable("solve_runs")
      .set({
        status: outcome.error ? "failed" : "completed",
        error_code: outcome.error?.code ?? null,
        error_message: outcome.error?.message ?? null,
        finished_at: new Date(),
      })
      .where("id", "=", runId)
      .where("status", "=", "running")
      .execute();
    if (outcome.error) await releaseRunQuota(trx, runId);
    else await chargeRunQuota(trx, runId);
  });
  return runSpent(db, runId);
}

/** How a solve run left running is ended with its backtest. */
export const BACKTEST_ENDED = {
  code: "backtest.ended",
  message: "The backtest ended before this solve finished",
} as const;

/**
 * Ends, failed with BACKTEST_ENDED, every solve run of the backtest still queued or running (a
 * worker that died or lost the job's lock left it so): its spend is taken from the ledger and its
 * quota unit given back, as endSolveRun does. Only rows still queued or running change, each
 * once, so two ends at once, or an end racing the solve's own, settle a run once. Run in the
 * transaction that ended the backtest. Answers the runs it ended.
 */
export async function endLeftSolveRuns(trx: Transaction<Database>, backtestId: string): Promise<string[]> {
  const left = await trx
    .updateTable("solve_runs")
    .set({
      status: "failed",
      error_code: BACKTEST_ENDED.code,
      error_message: BACKTEST_ENDED.message,
      finished_at: new Date(),
    })
    .where("backtest_id", "=", backtestId)
    .where("status", "in", ["queued", "running"])
    .returning("id")
    .execute();
  for (const { id } of left) {
    await syncRunSpend(trx, id);
    await releaseRunQuota(trx, id);
  }
  return left.map((r) => r.id);
}
