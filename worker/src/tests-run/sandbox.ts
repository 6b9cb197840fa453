import { randomInt } from "node:crypto";
import type { SandboxBackend } from "@fixloop/contract";

/** How a run's disk budget is enforced: by a filesystem of that size, or by polling the workspace's usage. */
export type DiskWall = "filesystem" | "poll";

/** Resource limits of one sandboxed command. */
export interface SandboxLimits {
  timeoutMs: number;
  /** Address space per process (RLIMIT_AS), bytes. */
  memoryBytes: number;
  /** Processes of the sandbox user (RLIMIT_NPROC). */
  processes: number;
  /** Largest file a process may write (RLIMIT_FSIZE), bytes. */
  fileBytes: number;
  /** Output kept in `SandboxResult.output` (the last bytes). */
  outputBytes: number;
  /** Memory of the whole sandbox (cgroup), bytes; default `memoryBytes`. */
  totalMemoryBytes?: number;
  /** Size of the sandbox's `/tmp` and `/dev/shm` (tmpfs), bytes; default `DEFAULT_TMP_BYTES`. */
  tmpBytes?: number;
  /** Disk the workspace may use while a command runs, bytes; unset: no budget. */
  diskBytes?: number;
}

export const DEFAULT_TMP_BYTES = 512 * 1024 * 1024;

/** A wall a run hit and was stopped by (or, for processes, refused forks at). */
export type SandboxLimitHit = "memory" | "processes" | "disk";

/** How memory and processes were capped: for the sandbox as a whole (a cgroup) or per process only. */
export type SandboxTotals = "cgroup v2" | "cgroup v1" | "per process";

/** Which of a process's output streams a chunk came from. */
export type OutputStream = "stdout" | "stderr";

export interface SandboxRunSpec {
  /** Host directory bound read-write as the working directory. */
  workspace: string;
  /** Shell command (`/bin/sh -c`). */
  command: string;
  /** Network access (through the egress proxy only); only setup commands may opt in. */
  network: boolean;
  /** Set by the runner for a networked run: host directory of the egress proxy's socket and bridge. */
  egressDir?: string;
  limits: SandboxLimits;
  /** Output as it comes, decoded per stream (a character split across reads is whole in one chunk). */
  onOutput?: (chunk: string, stream: OutputStream) => void;
  signal?: AbortSignal;
  /** Detected language (the docker backend picks its image by it). */
  language?: string;
  /**
   * uid/gid the command runs as (default SANDBOX_UID). RLIMIT_NPROC counts every process of a
   * uid, so concurrent runs sharing one uid share one process budget and starve each other:
   * give each run its own (`sandboxRunUid`).
   */
  uid?: number;
}

export interface SandboxResult {
  exitCode: number | null;
  timedOut: boolean;
  cancelled: boolean;
  /** Last `limits.outputBytes` of stdout+stderr. */
  output: string;
  truncated: boolean;
  durationMs: number;
  /** Requests the egress proxy refused or could not connect (`host:port (reason)`), when any. */
  blockedHosts?: string[];
  /** The wall the run hit, when it hit one (bwrap). */
  limitHit?: SandboxLimitHit;
  /** How totals were capped for this run (bwrap). */
  totals?: SandboxTotals;
  /** How the disk budget held: a filesystem of its size (a wall) or a poll of the usage; absent without a budget. */
  disk?: DiskWall;
}

export interface SandboxRunner {
  readonly backend: SandboxBackend;
  run(spec: SandboxRunSpec): Promise<SandboxResult>;
}

/** The environment every sandboxed command gets: nothing of the worker's. */
export const SANDBOX_ENV: Record<string, string> = {
  PATH: "/usr/local/bin:/usr/bin:/bin",
  HOME: "/tmp/home",
  LANG: "C.UTF-8",
  CI: "true",
};

/** Environment of the launcher itself (bwrap, docker): nothing of the worker's. */
export const HOST_ENV: Record<string, string> = {
  PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
};

/** The unprivileged uid/gid commands run as (nobody). */
export const SANDBOX_UID = 65534;

/** Private uids for sandboxed runs: above the ranges distributions hand out (and below nobody's 4294967294). */
export const SANDBOX_RUN_UID_BASE = 0x4000_0000;
const SANDBOX_RUN_UID_SPAN = 0x1000_0000;

/** A fresh unprivileged uid for one run, so its process limit is its own. */
export function sandboxRunUid(): number {
  return SANDBOX_RUN_UID_BASE + randomInt(SANDBOX_RUN_UID_SPAN);
}

/** `prlimit` prefix applying the limits to the command and everything it starts. */
export function prlimitArgs(l: SandboxLimits): string[] {
  return ["prlimit", `--as=${l.memoryBytes}`, `--nproc=${l.processes}`, `--fsize=${l.fileBytes}`, "--core=0", "--"];
}
