import { CLUSTER_METRICS, observeDuration } from "@fixloop/runtime";
import type { WorkerContext } from "../context";

/** A completed pipeline step's duration, in the cluster-wide step histogram; never holds up the run. */
export function recordStepDuration(
  ctx: Pick<WorkerContext, "redis" | "queues" | "logger">,
  step: string,
  seconds: number,
) {
  void observeDuration(ctx.redis, ctx.queues.prefix, CLUSTER_METRICS.stepDuration, { step }, seconds).catch(
    (err: Error) => ctx.logger.warn({ step, err: err.message }, "a step metric could not be recorded"),
  );
}
