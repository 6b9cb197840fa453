import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { constants as fsConstants } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { SANDBOX_UID } from "./sandbox";
import { removeTree } from "./workspace.cleanup";

/**
 * Repository trees on disk under `root`:
 * - `base/<key>`: one immutable tree per repository+commit, built in `tmp/` and renamed into
 *   place (a crash leaves only a `tmp/` dir, removed by the next `sweep`), evicted least
 *   recently used beyond `maxBytes`;
 * - `runs/<pid>-<id>`: a private copy per test run, removed after the run (or by `sweep` once
 *   its process is gone).
 */
export interface WorkspaceCache {
  root: string;
  maxBytes: number;
}

const execFileAsync = promisify(execFile);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** Removes half-built trees and run copies whose worker process is gone; one that resists is reported and skipped. */
export async function sweepWorkspaces(
  cache: WorkspaceCache,
  onError: (name: string, err: Error) => void = () => undefined,
): Promise<number> {
  let removed = 0;
  for (const sub of ["tmp", "runs"]) {
    const dir = path.join(cache.root, sub);
    for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
      const pid = Number(name.split("-")[0]);
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) continue;
      if (pid === process.pid) continue;
      try {
        await removeTree(path.join(dir, name));
        removed++;
      } catch (err) {
        onError(`${sub}/${name}`, err as Error);
      }
    }
  }
  return removed;
}

/** The cache's name for owner/repo@commit. */
export const treeKey = (owner: string, repo: string, commit: string) =>
  `${owner.toLowerCase()}__${repo.toLowerCase()}@${commit}`;

/** The cached base tree of owner/repo@commit, built by `build(dir)` on a miss. */
export async function baseTree(
  cache: WorkspaceCache,
  owner: string,
  repo: string,
  commit: string,
  build: (dir: string) => Promise<void>,
): Promise<{ dir: string; cached: boolean }> {
  if (!/^[0-9a-f]{7,64}$/i.test(commit)) throw new Error(`Not a commit sha: ${commit}`);
  const dir = path.join(cache.root, "base", treeKey(owner, repo, commit));
  if (await exists(dir)) {
    const now = new Date();
    await fs.utimes(dir, now, now);
    return { dir, cached: true };
  }
  const tmp = path.join(cache.root, "tmp", `${process.pid}-${randomUUID()}`);
  await fs.mkdir(tmp, { recursive: true });
  try {
    await build(tmp);
    await fs.mkdir(path.dirname(dir), { recursive: true });
    await fs.rename(tmp, dir).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== "ENOTEMPTY" && err.code !== "EEXIST") throw err; // another worker built it first
    });
  } finally {
    await removeTree(tmp).catch(() => undefined); // left for the next sweep
  }
  await evict(cache, dir);
  return { dir, cached: false };
}

/** A private, writable copy of a base tree for one run; `dispose` removes it. */
export async function checkout(
  cache: WorkspaceCache,
  baseDir: string,
): Promise<{ dir: string; dispose: () => Promise<void> }> {
  const dir = path.join(cache.root, "runs", `${process.pid}-${randomUUID()}`);
  const now = new Date();
  await fs.utimes(baseDir, now, now); // in use: not evicted for a while (see `evict`)
  await fs.mkdir(dir, { recursive: true });
  // cp(1) is an order of magnitude faster than fs.cp on many small files, and reflinks where the filesystem can.
  await execFileAsync("cp", ["-a", "--reflink=auto", `${baseDir}/.`, dir]);
  return { dir, dispose: () => removeTree(dir) };
}

/** Writes `content` at `rel` inside `dir`, refusing paths that leave it (`..`, absolute, through a symlink). */
export async function writeInside(dir: string, rel: string, content: string | null): Promise<void> {
  const norm = path.posix.normalize(rel);
  if (!rel || path.posix.isAbsolute(rel) || norm.startsWith("..") || norm.split("/").includes(".git"))
    throw new Error(`Refusing to write outside the workspace: ${rel}`);
  let cur = dir;
  for (const part of norm.split("/").slice(0, -1)) {
    cur = path.join(cur, part);
    const st = await fs.lstat(cur).catch(() => null);
    if (st?.isSymbolicLink()) throw new Error(`Refusing to write through a symlink: ${rel}`);
    if (!st) await fs.mkdir(cur);
  }
  const target = path.join(dir, norm);
  const st = await fs.lstat(target).catch(() => null);
  if (st?.isSymbolicLink()) throw new Error(`Refusing to write through a symlink: ${rel}`);
  // Code run by a networked setup shapes the tree before the patch is written: a FIFO there would
  // block the write forever (no signal reaches it), a directory or device is no file to patch.
  if (st && !st.isFile()) throw new Error(`Refusing to write over something that is not a regular file: ${rel}`);
  if (content === null) await fs.rm(target, { force: true });
  else await fs.writeFile(target, content, { flag: WRITE_FLAGS });
}

/** Created or truncated, never through a link, never waiting on a FIFO swapped in since the check. */
const WRITE_FLAGS =
  fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_TRUNC | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK;

/** Makes a run copy writable by the sandbox user (needed when the worker runs as root and drops to `uid`). */
export async function handToSandbox(dir: string, uid = SANDBOX_UID): Promise<void> {
  if (process.getuid?.() === 0) await chownTree(dir, uid);
}

async function chownTree(dir: string, uid: number): Promise<void> {
  await execFileAsync("chown", ["-R", "-h", `${uid}:${uid}`, dir]);
}

const exists = (p: string) =>
  fs.stat(p).then(
    () => true,
    () => false,
  );

async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const e of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) total += await sizeOf(p);
    else total += (await fs.lstat(p).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

/**
 * A base tree looked up or copied this recently is never evicted, however full the cache: another
 * job may be copying it, or hold it between the validating step's two halves. The cache may then
 * stay over `maxBytes` until those trees go unused.
 */
export const KEEP_USED_WITHIN_MS = 2 * 60 * 60 * 1000;

/**
 * Least recently used base trees go first until the cache fits (the one just built stays, and so
 * does any used within KEEP_USED_WITHIN_MS). A tree is renamed out of `base/` before it is
 * removed, so no job ever finds a half-removed tree at its path.
 */
async function evict(cache: WorkspaceCache, keep: string): Promise<void> {
  const baseRoot = path.join(cache.root, "base");
  const entries = await Promise.all(
    (await fs.readdir(baseRoot)).map(async (name) => {
      const dir = path.join(baseRoot, name);
      return { dir, used: (await fs.stat(dir)).mtimeMs, size: await sizeOf(dir) };
    }),
  );
  let total = entries.reduce((s, e) => s + e.size, 0);
  const now = Date.now();
  for (const e of entries.sort((a, b) => a.used - b.used)) {
    if (total <= cache.maxBytes) break;
    if (e.dir === keep || now - e.used < KEEP_USED_WITHIN_MS) continue;
    const gone = path.join(cache.root, "tmp", `${process.pid}-${randomUUID()}`);
    const moved = await fs.rename(e.dir, gone).then(
      () => true,
      () => false,
    );
    if (!moved) continue;
    total -= e.size;
    await removeTree(gone).catch(() => undefined); // else left for the next sweep
  }
}
