import { execFile } from "node:child_process";
import { HOST_ENV } from "./sandbox";

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
