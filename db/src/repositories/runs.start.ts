import type { Kysely, Transaction } from "kysely";
import type { Database } from "../schema";
import type { PlanId } from "@fixloop/contract";
import type { RunInput } from "./json-columns";
import { activeOf } from "./runs.reads";
import { create } from "./runs.repository";
import { currentUsagePeriod, reserveQuota } from "./usage.repository";

/**
 * What a new run is: whose, of which issue, with which model, and (refine) of which solution with
 * which input, or (backtest) of which backtest: a backtest's solve of a past issue, run as any run
 * (its steps 1–3 stored by its backtest first), which never makes a solution and never changes its issue.
 */
export interface RunRequest {
  userId: string;
  issueId: string;
  modelId: string;
  kind: "solve" | "refine" | "backtest";
  solutionId?: string;
  backtestId?: string;
  input?: RunInput;
  /** What is stored with the new run in its start's commit (a backtest's solve: its steps 1–3, see backtests.solves). */
  storedWith?: (trx: Transaction<Database>, runId: string) => Promise<void>;
}

export type StartOutcome =
  | { status: "started"; runId: string; userId: string; usage: { plan: PlanId; periodStart: Date; used: number } }
  /** The issue already has an active run (`cancelling`: its cancellation was requested). */
  | { status: "active"; runId: string; cancelling: boolean }
  /** The plan's quota for the period is used up. */
  | { status: "over_quota" };

/** An outcome that starts nothing: thrown inside the transaction so whatever `prepare` wrote is rolled back. */
class NotStarted extends Error {
  constructor(readonly outcome: Exclude<StartOutcome, { status: "started" }>) {
    super(outcome.status);
  }
}

/**
 * The one way a run starts (solve, refine and a backtest's solve): in one transaction, `prepare` (which may lock and
 * write, e.g. keep the solution's current revision) says what run to create; the issue must have
 * no active run; one unit of the plan's quota is reserved; the run is inserted queued. An insert
 * that loses the race for the issue (23505 on the one-active-run index) answers the winner.
 * Nothing is written unless the run is created. Queue the run with `enqueueRun` afterwards.
 */
export async function start(
  db: Kysely<Database>,
  prepare: (trx: Transaction<Database>) => Promise<RunRequest>,
): Promise<StartOutcome> {
  let issueId: string | undefined;
  try {
    return await db.transaction().execute(async (trx) => {
      const req = await prepare(trx);
      issueId = req.issueId;
      const active = await activeOf(trx, req.issueId);
      if (active)
        throw new NotStarted({ status: "active", runId: active.id, cancelling: !!active.cancel_requested_at });
      const period = await currentUsagePeriod(trx, req.userId);
      const reserved = await reserveQuota(trx, req.userId, period.plan, { periodStart: period.periodStart });
      if (!reserved) throw new NotStarted({ status: "over_quota" });
      const runId = await create(trx, {
        user_id: req.userId,
        issue_id: req.issueId,
        model_id: req.modelId,
        kind: req.kind,
        solution_id: req.solutionId ?? null,
        backtest_id: req.backtestId ?? null,
        input: req.input,
        quotaPeriodStart: reserved.periodStart,
      });
      await req.storedWith?.(trx, runId);
      return {
        status: "started" as const,
        runId,
        userId: req.userId,
        usage: { plan: period.plan, periodStart: period.periodStart, used: reserved.used },
      };
    });
  } catch (err) {
    if (err instanceof NotStarted) return err.outcome;
    if ((err as { code?: string }).code === "23505" && issueId) {
      const winner = await activeOf(db, issueId);
      if (winner) return { status: "active", runId: winner.id, cancelling: !!winner.cancel_requested_at };
    }
    throw err;
  }
}
