import { execFile } from "node:child_process";
import { HOST_ENV } from "./sandbox";
import { type DiskWall, wallSpace } from "./workspace.wall";

/** Polls the disk used under `dir` (du(1): fast on large trees, any depth) at least this often. */
export const DISK_POLL_MS = 500;

/** Bytes of disk used under `dir` on its filesystem (what du could read when parts are unreadable). */
export function diskUsage(dir: string): Promise<number> {
  return new Promise((resolve) => {
    execFile("du", ["-s", "-x", "-B1", dir], { env: HOST_ENV, maxBuffer: 1 << 16 }, (_err, stdout) =>
      resolve(Number(String(stdout).split("\t")[0]) || 0),
    );
  });
}

/**
 * Calls `onOver` once when `dir` grows past `maxBytes` while a command runs. A walk that takes
 * long (a huge tree) spaces the next one out, so the watch never takes more than a third of a core.
 * Returns the function that stops watching.
 */
export function watchDisk(dir: string, maxBytes: number, onOver: (bytes: number) => void): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const poll = async () => {
    const started = Date.now();
    const used = await diskUsage(dir);
    if (stopped) return;
    if (used > maxBytes) {
      stopped = true;
      onOver(used);
      return;
    }
    timer = setTimeout(() => void poll(), Math.max(DISK_POLL_MS, 2 * (Date.now() - started)));
  };
  timer = setTimeout(() => void poll(), DISK_POLL_MS);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

/** Free bytes (or inodes) under which a walled workspace counts as full: writes past its budget now fail with ENOSPC. */
export const WALL_FULL_BYTES = 1024 * 1024;
const WALL_FULL_INODES = 16;

/** The guard of one run's disk budget, and how the budget holds there. */
export interface DiskBudget {
  wall: DiskWall;
  guard: (stop: (hit: "disk") => void) => () => void;
  /** Whether the budget was reached (asked once the command ended: a burst can fill it between two polls). */
  reached: () => Promise<boolean>;
}

/**
 * The disk budget of a run in `dir`. A workspace that is a size-limited filesystem of its own
 * (`checkoutWalled`) is a wall: bytes past it are refused where they are allocated, and the watch
 * only notices it is full to stop the run and say so. Anywhere else the usage is polled, which
 * bounds time, not bytes.
 */
export async function diskBudget(dir: string, maxBytes: number): Promise<DiskBudget> {
  if ((await wallSpace(dir)) !== null) {
    const full = async () => {
      const space = await wallSpace(dir);
      return !!space && (space.freeBytes < WALL_FULL_BYTES || space.freeInodes < WALL_FULL_INODES);
    };
    return {
      wall: "filesystem",
      guard: (stop) => watchUntil(full, () => stop("disk")),
      reached: full,
    };
  }
  return {
    wall: "poll",
    guard: (stop) => watchDisk(dir, maxBytes, () => stop("disk")),
    reached: async () => (await diskUsage(dir)) > maxBytes,
  };
}

/** Calls `onTrue` once when `check` answers true, asking every DISK_POLL_MS; returns the function that stops it. */
function watchUntil(check: () => Promise<boolean>, onTrue: () => void): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const poll = async () => {
    const yes = await check();
    if (stopped) return;
    if (yes) {
      stopped = true;
      onTrue();
      return;
    }
    timer = setTimeout(() => void poll(), DISK_POLL_MS);
  };
  timer = setTimeout(() => void poll(), DISK_POLL_MS);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
