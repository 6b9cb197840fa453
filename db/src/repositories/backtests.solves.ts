import type { Kysely } from "kysely";
import { BACKTEST_INTERRUPTED, type StepDetail, type StepId } from "@fixloop/contract";
import type { Database } from "../schema";
import type { Conn } from "./conn";
import { ClaimLost } from "./runs.claims";
import { copyCompleted } from "./steps.repository";
import { load } from "./runs.reads";
import { end } from "./runs.repository";
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

/**
 * Why a backtest's solve was not started: the plan's quota is used up, or the backtest is no
 * longer running. `runId` is a run still queued or running, new or (`adopted`) the one an earlier
 * attempt of the same backtest started on the issue and that is still being solved.
 */
export type SolveStart = { runId: string; adopted: boolean } | { refused: "quota" | "ended" };

/** Refuses the start inside its transaction: the backtest is no longer running. */
class BacktestNotRunning extends Error {}

/**
 * Starts a backtest's solve of one past issue through the one run start (`runs.start`: one unit of
 * the plan's quota reserved, the run inserted queued with backtest `backtestId` as its origin and,
 * in the same commit, `localized` as its completed steps 1–3, so its processor never runs them at
 * the default branch); the caller queues it as any run. Refused (nothing written) when the quota is used up, or when the
 * backtest is no longer running: a run started after its end would be left with nothing to end it.
 * The issue's active solve of this same backtest (an earlier attempt of the backtest stopped while
 * it ran) is answered as it is: it goes on and is waited for, not paid twice. One of another
 * backtest was left by a backtest that stopped without ending it: it ends failed
 * (BACKTEST_INTERRUPTED), its quota unit given back, and the issue is solved anew.
 */
export async function startSolveRun(
  db: Kysely<Database>,
  r: {
    userId: string;
    issueId: string;
    modelId: string;
    candidates: number;
    backtestId: string;
    /** The backtest's claim: ClaimLost when the backtest no longer carries it (another worker holds it). */
    token?: string;
    /** Steps 1–3 as the backtest localized the issue at its pull request's base commit. */
    localized: { step: StepId; detail: StepDetail; output: unknown }[];
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
          storedWith: (t, runId) => copyCompleted(t, runId, r.localized),
        };
      });
    } catch (err) {
      if (err instanceof BacktestNotRunning) return { refused: "ended" };
      throw err;
    }
    if (outcome.status === "over_quota") return { refused: "quota" };
    if (outcome.status === "started") return { runId: outcome.runId, adopted: false };
    const active = await load(db, outcome.runId);
    if (active?.kind !== "backtest") throw new Error("The issue has a run under way");
    if (active.backtest_id === r.backtestId) return { runId: active.id, adopted: true };
    await end(db, active, "failed", BACKTEST_INTERRUPTED);
  }
  throw new Error("The issue's earlier backtest solve could not be ended");
}
