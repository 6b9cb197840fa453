import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { HOST_ENV } from "./sandbox";
import { releaseWall } from "./workspace.wall";

const execFileAsync = promisify(execFile);

/** A workspace that could not be removed; its message names no host path. */
export class CleanupError extends Error {
  constructor(cause: unknown) {
    super("The workspace could not be removed", { cause });
  }
}

/**
 * Removes a tree a sandboxed command may have shaped against us: directories nested past
 * PATH_MAX, names at NAME_MAX, modes that forbid reading or writing. `fs.rm` builds full paths
 * and gives up on those (ENAMETOOLONG, EACCES); chmod(1) and rm(1) walk with file descriptors
 * (any depth), so they take over: first make every directory ours to list and empty, then remove,
 * never crossing into another filesystem.
 */
export async function removeTree(dir: string): Promise<void> {
  // A run directory that is its own size-limited filesystem is unmounted first (its image removed):
  // otherwise only its contents would go, and the mount and the image would stay.
  await releaseWall(dir).catch((err: unknown) => {
    throw new CleanupError(err);
  });
  try {
    await fs.rm(dir, { recursive: true, force: true });
    return;
  } catch {
    // fall through to the tools that walk by descriptor
  }
  await execFileAsync("chmod", ["-R", "u+rwX", "--", dir], { env: HOST_ENV }).catch(() => undefined);
  try {
    await execFileAsync("rm", ["-rf", "--one-file-system", "--", dir], { env: HOST_ENV });
  } catch (err) {
    throw new CleanupError(err);
  }
  if (
    await fs.lstat(dir).then(
      () => true,
      () => false,
    )
  )
    throw new CleanupError(null);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * `text` with every path under one of `roots` (the workspaces directory, the data directory)
 * replaced by "the workspace": what reaches a user speaks of the workspace, never of the host.
 */
export function scrubHostPaths(text: string, roots: string[]): string {
  let out = text;
  for (const root of roots.filter((r) => path.isAbsolute(r) && r !== "/").sort((a, b) => b.length - a.length)) {
    out = out.replace(new RegExp(`${escape(root.replace(/\/+$/, ""))}(?:/[^\\s'"\`)\\]]*)?`, "g"), "the workspace");
  }
  return out;
}
