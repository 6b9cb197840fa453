import type { Redis } from "ioredis";
import type { TestsPhase } from "@fixloop/contract";
import { CLUSTER_METRICS, incrementCounter, type SandboxRunResult } from "@fixloop/runtime";
import type { PhaseRun } from "./compare";

/** How one sandboxed phase ended, most telling first (a setup that timed out counts as timed out). */
export function sandboxRunResult(run: PhaseRun): SandboxRunResult {
  if (run.cancelled) return "cancelled";
  if (run.timedOut) return "timed_out";
  if (run.limitHit) return "limit_hit";
  if (run.setupFailed) return "setup_failed";
  return run.exitCode === 0 ? "passed" : "failed";
}

/** Counts a finished sandbox run in the cluster-wide metrics; a lost count (Redis down) never fails the tests step. */
export async function recordSandboxRun(
  deps: { redis: Redis; prefix: string },
  phase: TestsPhase,
  run: PhaseRun,
): Promise<void> {
  await incrementCounter(deps.redis, deps.prefix, CLUSTER_METRICS.sandboxRuns, {
    phase,
    result: sandboxRunResult(run),
  }).catch(() => {});
}
