import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { HOST_ENV, type DiskWall } from "./sandbox";

const execFileAsync = promisify(execFile);
const run = (cmd: string, args: string[]) => execFileAsync(cmd, args, { env: HOST_ENV });

export type { DiskWall };

/** The image file backing a walled run directory: beside it, never inside (the sandbox sees only the directory). */
export const wallImage = (dir: string) => `${dir}.img`;

/**
 * Makes `dir` (empty) a filesystem of `bytes`: a sparse ext4 image beside it, loop-mounted
 * nodev,nosuid. Writing past it fails with ENOSPC wherever the bytes are allocated (fallocate
 * included), and the host never holds more than the image's size for it. No journal (a scratch
 * tree a crash throws away) and no background inode-table zeroing (`noinit_itable`), so the
 * image takes on the host only what the run writes. Needs root and a free loop device: returns
 * why not otherwise, and the caller keeps the poll.
 */
export async function mountWall(dir: string, bytes: number): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (process.getuid?.() !== 0) return { ok: false, reason: "the worker is not root, so it cannot mount one" };
  const img = wallImage(dir);
  try {
    const fh = await fs.open(img, "wx", 0o600);
    await fh.truncate(bytes);
    await fh.close();
    await run("mkfs.ext4", [
      "-q",
      "-F",
      "-m",
      "0",
      "-i",
      "8192",
      "-O",
      "^has_journal",
      "-E",
      "lazy_itable_init=1",
      img,
    ]);
    await run("mount", ["-t", "ext4", "-o", "loop,nodev,nosuid,noinit_itable", img, dir]);
  } catch (err) {
    await fs.rm(img, { force: true }).catch(() => undefined);
    const msg = (err as { stderr?: string }).stderr?.trim() || (err as Error).message;
    return { ok: false, reason: `no size-limited filesystem could be mounted (${firstLine(msg)})` };
  }
  await fs.rmdir(path.join(dir, "lost+found")).catch(() => undefined); // not part of the repository
  return { ok: true };
}

const firstLine = (s: string) => (s.split("\n")[0] ?? "").replace(/\/\S+/g, "…").slice(0, 160);

/** Whether `dir` is a mount point (its device differs from its parent's). */
export async function isMountPoint(dir: string): Promise<boolean> {
  const [a, b] = await Promise.all([fs.lstat(dir).catch(() => null), fs.lstat(path.dirname(dir)).catch(() => null)]);
  return !!a && !!b && a.isDirectory() && a.dev !== b.dev;
}

/**
 * Unmounts a walled run directory (also one a crashed worker left: the sweep calls it through
 * `removeTree`) and removes its image; a no-op for a plain directory. A mount still busy is
 * detached lazily, and the loop device goes with its last user.
 */
export async function releaseWall(dir: string): Promise<void> {
  if (await isMountPoint(dir)) await run("umount", [dir]).catch(() => run("umount", ["-l", dir]));
  await fs.rm(wallImage(dir), { force: true });
}

/** Bytes and inodes still free to the sandbox on a walled workspace, or null when `dir` is no wall of its own. */
export async function wallSpace(dir: string): Promise<{ freeBytes: number; freeInodes: number } | null> {
  if (!(await isMountPoint(dir))) return null;
  const s = await fs.statfs(dir).catch(() => null);
  return s ? { freeBytes: s.bavail * s.bsize, freeInodes: s.ffree } : null;
}
