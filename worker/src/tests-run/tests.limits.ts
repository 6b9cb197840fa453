import type { TestPlan } from "./detect";
import type { SandboxLimitHit, SandboxLimits, SandboxTotals } from "./sandbox";

/**
 * The limits of one phase. The operator's limits are ceilings: a repository's `.fixloop.yml`
 * `timeout` or its setting can only lower the timeout, never raise it.
 */
export function phaseLimits(limits: SandboxLimits, plan: Pick<TestPlan, "timeoutMs">): SandboxLimits {
  const timeoutMs = plan.timeoutMs === null ? limits.timeoutMs : Math.min(plan.timeoutMs, limits.timeoutMs);
  return { ...limits, timeoutMs };
}

const WALLS: Record<SandboxLimitHit, string> = {
  memory: "ran out of memory: the sandbox's total memory cap stopped a process",
  processes: "reached the sandbox's process cap: new processes were refused",
  disk: "went over the workspace's disk budget and were stopped",
};

/** Why a phase that hit a wall ended, for the step (null when it hit none). */
export function wallReason(run: { limitHit?: SandboxLimitHit; setupFailed: boolean }): string | null {
  if (!run.limitHit) return null;
  return `${run.setupFailed ? "The setup command" : "The tests"} ${WALLS[run.limitHit]}`;
}

/** Step lines: a timeout the repository asked for above the server's, and how the sandbox's totals were capped. */
export function limitLines(
  plan: Pick<TestPlan, "timeoutMs">,
  limits: SandboxLimits,
  run: { totals?: SandboxTotals } | null,
): { info: string[]; warnings: string[] } {
  const info: string[] = [];
  const warnings: string[] = [];
  if (plan.timeoutMs !== null && plan.timeoutMs > limits.timeoutMs)
    info.push(
      `The repository asks for a ${Math.round(plan.timeoutMs / 1000)} s timeout; this server's limit of ${Math.round(limits.timeoutMs / 1000)} s applies`,
    );
  if (run?.totals === "per process")
    warnings.push(
      "Sandbox limits: memory and processes were capped per process only (no cgroup could be created for the sandbox as a whole)",
    );
  else if (run?.totals)
    info.push(`Sandbox limits: memory and processes capped for the sandbox as a whole (${run.totals})`);
  return { info, warnings };
}
