/**
 * Lines added and removed as the diff view shows them: one line diff, counted one way, for the
 * diff headers, the validation stats and the pull request body. Only `diff` behind it, so the web
 * app bundles it too.
 */
import { diffLines, type ChangeObject } from "diff";

export interface DiffCounts {
  added: number;
  removed: number;
}

/** The lines of one diff part (a part's text ends with the newline of its last line). */
export function partLines(value: string): string[] {
  const out = value.split("\n");
  if (out.at(-1) === "") out.pop();
  return out;
}

/** Counts the added and removed lines of a line diff's parts. */
export function countDiffParts(parts: readonly ChangeObject<string>[]): DiffCounts {
  let added = 0;
  let removed = 0;
  for (const part of parts) {
    if (part.added) added += partLines(part.value).length;
    else if (part.removed) removed += partLines(part.value).length;
  }
  return { added, removed };
}

export function diffCounts(before: string, after: string): DiffCounts {
  return countDiffParts(diffLines(before, after));
}

/** A file change's counts: a new file against nothing, a deleted one to nothing. */
export function fileDiffCounts(f: {
  action: "create" | "modify" | "delete";
  content: string;
  originalContent: string;
}) {
  return diffCounts(f.action === "create" ? "" : f.originalContent, f.action === "delete" ? "" : f.content);
}
