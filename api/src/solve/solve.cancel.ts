import type { SolveRun } from "@fixloop/db";
import { releaseRunQuota } from "@fixloop/db";
import { jobIds } from "@fixloop/worker/contract";
import { openRunEventLog } from "@fixloop/worker/contract";
import type { AppDeps } from "../deps";
import { solveErrors } from "./solve.errors";
import { ACTIVE_RUN_STATUSES } from "@fixloop/db/domain";

/**
 * Cancels a run. A queued run is ended here; a running one is flagged in Postgres and announced
 * on the cancel channel so the worker holding its job aborts it (down to the model call).
 */
export async function cancelRun(
  deps: Pick<AppDeps, "db" | "redis" | "queues">,
  run: SolveRun,
  channel: string,
): Promise<"cancelled" | "cancelling"> {
  const { db, redis, queues } = deps;
  const flagged = await db
    .updateTable("solve_runs")
    .set({ cancel_requested_at: new Date() })
    .where("id", "=", run.id)
    .where("status", "in", ACTIVE_RUN_STATUSES)
    .returning("status")
    .executeTakeFirst();
  if (!flagged) throw solveErrors.runFinished(run.status);
  // A queued run ends here, its quota unit given back in the same commit.
  const ended = await db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable("solve_runs")
      .set({
        status: "cancelled",
        error_code: "run.cancelled",
        error_message: "The run was cancelled",
        finished_at: new Date(),
      })
      .where("id", "=", run.id)
      .where("status", "=", "queued")
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await releaseRunQuota(trx, run.id);
    return true;
  });
  if (ended) {
    await queues.solve.remove(jobIds.solve(run.id)).catch(() => 0);
    const log = await openRunEventLog(redis, queues.prefix, run.id);
    await log.emit({ type: "cancelled", at: new Date().toISOString() });
    return "cancelled";
  }
  await redis.publish(channel, run.id);
  return "cancelling";
}
