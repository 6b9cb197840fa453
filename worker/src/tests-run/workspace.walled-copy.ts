import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { HOST_ENV } from "./sandbox";
import type { WorkspaceCache } from "./workspace";
import { removeTree } from "./workspace.cleanup";
import { type DiskWall, mountWall, releaseWall } from "./workspace.wall";

const execFileAsync = promisify(execFile);

/** A run's private copy of a tree, and how its disk budget holds. */
export interface WalledCopy {
  dir: string;
  wall: DiskWall;
  /** Why the budget is only polled (no wall could be built). */
  why?: string;
  dispose: () => Promise<void>;
}

/**
 * A private, writable copy of `baseDir` for one run (as `checkout`), inside a filesystem of
 * `diskBytes` where one can be mounted. A repository that does not fit its budget there is copied
 * without a wall: the poll then stops its first command at once and the step says the budget was
 * reached, as before.
 */
export async function checkoutWalled(
  cache: WorkspaceCache,
  baseDir: string,
  diskBytes: number | undefined,
): Promise<WalledCopy> {
  const dir = path.join(cache.root, "runs", `${process.pid}-${randomUUID()}`);
  const now = new Date();
  await fs.utimes(baseDir, now, now); // in use: not evicted for a while (see `evict`)
  await fs.mkdir(dir, { recursive: true });
  const dispose = () => removeTree(dir);
  let wall: { ok: true } | { ok: false; reason: string } =
    diskBytes === undefined ? { ok: false, reason: "no disk budget is set" } : await mountWall(dir, diskBytes);
  try {
    await copyTree(baseDir, dir);
  } catch (err) {
    if (!wall.ok) throw err;
    await releaseWall(dir);
    await removeTree(dir);
    await fs.mkdir(dir, { recursive: true });
    wall = { ok: false, reason: "the repository alone does not fit in the budget" };
    await copyTree(baseDir, dir).catch(async (e: Error) => {
      await dispose().catch(() => undefined);
      throw e;
    });
  }
  return wall.ok ? { dir, wall: "filesystem", dispose } : { dir, wall: "poll", why: wall.reason, dispose };
}

// cp(1) is an order of magnitude faster than fs.cp on many small files, and reflinks where the filesystem can.
const copyTree = (from: string, to: string) =>
  execFileAsync("cp", ["-a", "--reflink=auto", `${from}/.`, to], { env: HOST_ENV });
