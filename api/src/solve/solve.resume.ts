import type { SolveRun } from "@fixloop/db";
import { type Conn, currentUsagePeriod, issues, reserveQuota, runs, solutions } from "@fixloop/db";
import { enqueueRun } from "@fixloop/runtime";
import { refineInputOf, refineSupersededReason, runEventsKey, standing } from "@fixloop/contract";
import type { AppDeps } from "../deps";
import { assertAllowed } from "../issues/issues.standing";
import { solveErrors } from "./solve.errors";
import { assertModelStillAllowed } from "./solve.model-access";

/** Runs stopped by a spending cap end with one of these codes; only they can be resumed. */
export const isCapStop = (run: Pick<SolveRun, "status" | "error_code">) =>
  run.status === "failed" && (run.error_code ?? "").startsWith("cost.");

/**
 * Puts a run stopped by a spending cap back in the queue: its quota is reserved again (it was
 * released when it stopped), its finished steps stay and are skipped, its event stream starts over.
 */
export async function resumeRun(deps: Pick<AppDeps, "db" | "redis" | "queues" | "env">, run: SolveRun): Promise<void> {
  const { db, redis, queues } = deps;
  if (!isCapStop(run)) throw solveErrors.notResumable();
  // An issue gone from GitHub cannot lead to a pull request: refused as a new run of it would be.
  await assertResumable(db, run.issue_id);
  // Its model is checked against the plan as it is now, as a new run's would be.
  await assertModelStillAllowed(deps, db, run.user_id, run.model_id);
  const period = await currentUsagePeriod(db, run.user_id);
  try {
    await db.transaction().execute(async (trx) => {
      // A refinement resumed after its solution was decided or changed could only be refused when
      // it finishes, after spending again: it is refused now (the solution stays locked meanwhile).
      if (run.kind === "refine" && run.solution_id) {
        const current = await solutions.lockForRefinement(trx, run.solution_id);
        const superseded = refineSupersededReason(current, refineInputOf(run.input));
        if (superseded) throw solveErrors.refineSuperseded(superseded);
      }
      // Checked again with the issue locked: one marked gone meanwhile is not queued to be cancelled.
      await assertResumable(trx, run.issue_id);
      const reserved = await reserveQuota(trx, run.user_id, period.plan, { periodStart: period.periodStart });
      if (!reserved) throw solveErrors.usageLimit();
      if (!(await runs.requeueCapStop(trx, run.id, reserved.periodStart))) throw solveErrors.notResumable();
    });
  } catch (err) {
    // The issue has another active run (partial unique index).
    if ((err as { code?: string }).code === "23505") throw solveErrors.issueBusy();
    throw err;
  }
  try {
    await redis.del(runEventsKey(queues.prefix, run.id));
    // The stopped attempt's job is kept as failed; the same id is free only once it is gone.
    await enqueueRun({ db, queues }, run.id, { replace: true });
  } catch (err) {
    await runs.failUnqueued(db, run.id);
    throw err;
  }
}

/** Refuses a run whose issue's standing no longer allows a resume (marked gone from GitHub). */
async function assertResumable(db: Conn, issueId: string) {
  assertAllowed("resume", standing((await issues.goneState(db, issueId)) ?? {}));
}
