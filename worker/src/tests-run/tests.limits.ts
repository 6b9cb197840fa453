import type { TestPlan } from "./detect";
import type { SandboxLimitHit, SandboxLimits, SandboxTotals } from "./sandbox";
import { DISK_POLL_MS } from "./sandbox.disk";
import type { DiskWall } from "./workspace.wall";

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

/** A workspace that is a filesystem of the budget's size refused the bytes past it. */
const DISK_WALL = "reached the workspace's disk budget: writing past it failed (no space left on device)";

/** Why a phase that hit a wall ended, for the step (null when it hit none). */
export function wallReason(run: { limitHit?: SandboxLimitHit; setupFailed: boolean; disk?: DiskWall }): string | null {
  if (!run.limitHit) return null;
  const why = run.limitHit === "disk" && run.disk === "filesystem" ? DISK_WALL : WALLS[run.limitHit];
  return `${run.setupFailed ? "The setup command" : "The tests"} ${why}`;
}

/** Step lines: a timeout the repository asked for above the server's, how the sandbox's totals were capped, how its disk budget held. */
export function limitLines(
  plan: Pick<TestPlan, "timeoutMs">,
  limits: SandboxLimits,
  run: { totals?: SandboxTotals; disk?: DiskWall; diskWhy?: string } | null,
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
  const mb = Math.round((limits.diskBytes ?? 0) / 1024 ** 2);
  if (run?.disk === "filesystem")
    info.push(`Disk budget: ${mb} MB, a filesystem of that size for the workspace (writing past it fails)`);
  else if (run?.disk === "poll")
    warnings.push(
      `Disk budget: ${mb} MB, checked every ${DISK_POLL_MS} ms only (${run.diskWhy ?? "the workspace is no filesystem of its own"}): a fast writer can overshoot it until the check stops the run`,
    );
  return { info, warnings };
}
