import path from "node:path";
import type { FileChange } from "@fixloop/db";
import { deniedChangeReason } from "../contract";
import { prErrors } from "./pull-requests.errors";

export interface PullRequestLimits {
  maxFiles: number;
  maxChangedLines: number;
  /** Bytes of any one file's new contents, and of all of them together. */
  maxBytes: number;
}

/** Text that is not text: NUL bytes, or bytes that were not valid UTF-8 (decoded as U+FFFD). */
export const looksBinary = (s: string) => s.includes("\0") || s.includes("\uFFFD");

/**
 * Lines added plus removed, by comparing the two files as multisets of lines: exact for pure
 * additions and deletions, and never below the real diff for moves, which is what a limit needs.
 */
export function lineDelta(before: string, after: string): { added: number; removed: number } {
  const counts = new Map<string, number>();
  const lines = (s: string) => (s === "" ? [] : s.split("\n"));
  for (const l of lines(before)) counts.set(l, (counts.get(l) ?? 0) + 1);
  let added = 0;
  for (const l of lines(after)) {
    const n = counts.get(l) ?? 0;
    if (n > 0) counts.set(l, n - 1);
    else added++;
  }
  let removed = 0;
  for (const n of counts.values()) removed += n;
  return { added, removed };
}

export function countChangedLines(before: string, after: string): number {
  const d = lineDelta(before, after);
  return d.added + d.removed;
}

export function fileChangedLines(f: FileChange): number {
  return countChangedLines(f.action === "create" ? "" : f.originalContent, f.action === "delete" ? "" : f.content);
}

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
  if (files.length > limits.maxFiles) throw prErrors.tooManyFiles(files.length, limits.maxFiles);
  const lines = files.reduce((n, f) => n + fileChangedLines(f), 0);
  if (lines > limits.maxChangedLines) throw prErrors.tooManyLines(lines, limits.maxChangedLines);
  let total = 0;
  for (const f of files) {
    if (f.action === "delete") continue;
    const bytes = Buffer.byteLength(f.content, "utf8");
    if (bytes > limits.maxBytes) throw prErrors.tooManyBytes(`${f.filename} has ${bytes} bytes`, limits.maxBytes);
    total += bytes;
    if (looksBinary(f.content) && (f.action === "create" || !looksBinary(f.originalContent)))
      throw prErrors.binary(f.filename);
  }
  if (total > limits.maxBytes) throw prErrors.tooManyBytes(`The change has ${total} bytes`, limits.maxBytes);
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
