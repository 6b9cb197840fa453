import { z } from "zod";
import { SandboxBackend } from "./tests";

/** The walls a worker's sandbox self-check attacks. */
export const SANDBOX_WALLS = ["network", "host-files", "userns", "memory", "processes", "disk", "egress"] as const;
export const SandboxWall = z.enum(SANDBOX_WALLS);
export type SandboxWall = z.infer<typeof SandboxWall>;

/**
 * How the sandbox came to be what it is: `on` (a backend runs the tests), `off-explicit` (the operator
 * set SANDBOX_BACKEND=off: solves run, and say their tests were not run), `off-missing` (no backend
 * was set and bwrap is not usable here: the worker takes no solve).
 */
export const SandboxMode = z.enum(["on", "off-explicit", "off-missing"]);
export type SandboxMode = z.infer<typeof SandboxMode>;

/** A worker's last sandbox self-check, in its heartbeat: what `/api/health`, `/ops` and `/metrics` show. */
export const SandboxCheck = z.object({
  backend: SandboxBackend,
  mode: SandboxMode,
  /** The worker takes solve and tests-rerun jobs (every wall held, or the sandbox is off on purpose). */
  ok: z.boolean(),
  /** Each wall: held (the attack failed), missing (it got through or could not be tried). */
  walls: z.partialRecord(SandboxWall, z.enum(["held", "missing"])),
  /** What got through, per missing wall, in a few words. */
  detail: z.record(z.string(), z.string()),
  /** How memory and processes are capped for the sandbox as a whole: a cgroup, or per process only. */
  totals: z.string().nullable(),
  versions: z.object({ bwrap: z.string().nullable(), kernel: z.string() }),
  durationMs: z.number(),
  checkedAt: z.string(),
});
export type SandboxCheck = z.infer<typeof SandboxCheck>;
