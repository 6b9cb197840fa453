import path from "node:path";
import { type FileChange, changeSizeBreach, deniedChangeReason, type ChangeSizeLimits } from "@fixloop/contract";
import { prErrors } from "./pull-requests.errors";

export type PullRequestLimits = ChangeSizeLimits;
// Kept where the pull-request code has always found them; the size rules live in the contract.
export { countChangedLines, fileChangedLines, lineDelta, looksBinary } from "@fixloop/contract";

/** Checks that need no GitHub call; run first so a refused change never reaches GitHub at all. */
export function assertChangeAllowed(files: FileChange[], limits: PullRequestLimits): void {
  if (files.length === 0) throw prErrors.empty();
  for (const f of files) {
    const reason = deniedChangeReason(f);
    if (reason) throw prErrors.denied(f.filename, reason);
  }
  if (new Set(files.map((f) => path.posix.normalize(f.filename))).size !== files.length) {
    throw prErrors.denied(files.map((f) => f.filename).join(", "), "The same path appears twice");
  }
  const breach = changeSizeBreach(files, limits);
  if (breach) throw prErrors.size(breach);
}

export interface TreeEntryLike {
  path?: string;
  mode?: string;
  type?: string;
  sha?: string | null;
}

/** Refuses writes through symlinks: the path itself or any parent directory being a link (mode 120000). */
export function assertNoSymlinks(files: FileChange[], tree: Map<string, TreeEntryLike>): void {
  for (const f of files) {
    const parts = f.filename.split("/");
    for (let i = 1; i <= parts.length; i++) {
      const p = parts.slice(0, i).join("/");
      if (tree.get(p)?.mode === "120000") throw prErrors.symlink(p);
    }
  }
}

/**
 * Refuses a file written where the base tree has a directory (the commit would delete the whole
 * directory), and a file under a path the base tree has as a file (it would replace that file).
 */
export function assertNoDirectoryReplaced(files: FileChange[], tree: Map<string, TreeEntryLike>): void {
  for (const f of files) {
    if (tree.get(f.filename)?.type === "tree") throw prErrors.denied(f.filename, "A file may not replace a directory");
    const parts = f.filename.split("/");
    for (let i = 1; i < parts.length; i++) {
      const p = parts.slice(0, i).join("/");
      if (tree.get(p)?.type === "blob")
        throw prErrors.denied(f.filename, `${p} is a file; a directory may not replace it`);
    }
  }
}
