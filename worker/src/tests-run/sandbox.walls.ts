import { HOST_ENV, type SandboxResult, type SandboxRunSpec } from "./sandbox";
import { cgroupEnterArgv, openRunCgroup } from "./sandbox.cgroup";
import { diskBudget } from "./sandbox.disk";
import { runProcessGroup } from "./sandbox.process";
import { seccompProgram } from "./sandbox.seccomp";

/** fd the seccomp program is handed to the sandbox on. */
const SECCOMP_FD = 3;

/**
 * Runs a sandbox launcher with the walls that are not its own flags: a cgroup of its own (memory
 * and processes in total), the seccomp program on an inherited fd, and the workspace's disk budget
 * (a wall where the workspace is a filesystem of its own, else polled) watched while the command runs. `argvOf` gets the seccomp fd (undefined on an arch without a filter).
 */
export async function runWalled(
  spec: SandboxRunSpec,
  argvOf: (seccompFd: number | undefined) => string[],
): Promise<SandboxResult> {
  const l = spec.limits;
  const cg = await openRunCgroup({ memoryBytes: l.totalMemoryBytes ?? l.memoryBytes, processes: l.processes });
  const seccomp = seccompProgram();
  const argv = argvOf(seccomp ? SECCOMP_FD : undefined);
  try {
    const disk = l.diskBytes === undefined ? null : await diskBudget(spec.workspace, l.diskBytes);
    const r = await runProcessGroup(cg ? [...cgroupEnterArgv(cg), ...argv] : argv, spec, HOST_ENV, {
      inputs: seccomp ? [seccomp] : [],
      guard: disk?.guard,
    });
    const hit = r.limitHit ?? (cg ? await cg.hit() : null) ?? ((await disk?.reached()) ? "disk" : null);
    return {
      ...r,
      ...(hit ? { limitHit: hit } : {}),
      totals: cg?.totals ?? "per process",
      ...(disk ? { disk: disk.wall } : {}),
    };
  } finally {
    await cg?.close();
  }
}
