import { sql, type Kysely } from "kysely";
import type { Database } from "../schema";
import type { Conn } from "./conn";
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

/**
 * Starts a backtest's solve of one past issue: in one transaction, one unit of the plan's quota is
 * reserved and a `backtest` run is inserted, running. Null when the quota is used up (nothing written).
 */
export async function startSolveRun(
  db: Kysely<Database>,
  r: { userId: string; issueId: string; modelId: string; candidates: number },
): Promise<string | null> {
  return db.transaction().execute(async (trx) => {
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
    if (!reserved) return null;
    const row = await trx
      .insertInto("solve_runs")
      .values({
        user_id: r.userId,
        issue_id: r.issueId,
        model_id: r.modelId,
        kind: "backtest",
        status: "running",
        input: runInput.write(r.candidates > 1 ? { candidates: r.candidates } : {}),
        quota_state: "reserved",
        quota_period_start: reserved.periodStart,
        started_at: new Date(),
        attempts: 1,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  });
}

/**
 * Ends a backtest solve: completed (its quota unit charged) when the model answered, else failed
 * with the reason (its unit given back). Answers its cost as the ledger has it.
 */
export async function endSolveRun(
  db: Kysely<Database>,
  runId: string,
  outcome: { error: { code: string; message: string } | null },
): Promise<number> {
  await db.transaction().execute(async (trx) => {
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
