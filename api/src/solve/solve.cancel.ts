import type { SolveRun } from "@fixloop/db";
import { runs } from "@fixloop/db";
import { jobIds } from "@fixloop/contract";
import { openRunEventLog } from "@fixloop/runtime";
import type { AppDeps } from "../deps";
import { solveErrors } from "./solve.errors";

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
  if (!(await runs.requestCancel(db, run.id))) throw solveErrors.runFinished(run.status);
  // A queued run ends here, its quota unit given back in the same commit.
  const ended = await runs.cancelQueued(db, run.id);
  if (ended) {
    await queues.solve.remove(jobIds.solve(run.id)).catch(() => 0);
    const log = await openRunEventLog(redis, queues.prefix, run.id);
    await log.emit({ type: "cancelled", at: new Date().toISOString() });
    return "cancelled";
  }
  await redis.publish(channel, run.id);
  return "cancelling";
}
