import type { SolveRun } from "@fixloop/db";
import { cancelRun as cancel } from "@fixloop/runtime";
import type { AppDeps } from "../deps";
import { solveErrors } from "./solve.errors";

/**
 * Cancels a run for its user (or the ops page): a queued run is ended here, a running one is
 * flagged and announced so the worker holding its job aborts it (see the runtime's `cancelRun`).
 */
export async function cancelRun(
  deps: Pick<AppDeps, "db" | "redis" | "queues">,
  run: SolveRun,
): Promise<"cancelled" | "cancelling"> {
  const outcome = await cancel(deps, run);
  if (outcome === "ended") throw solveErrors.runFinished(run.status);
  return outcome;
}
