import type { RepoFile } from "./files";
import { isCodePath } from "./languages";
import { parseIssue } from "./mentions";
import { isTestPath } from "./rank";
import { pathTerms } from "./tokenize";

export interface LimitedFiles {
  files: RepoFile[];
  /** How many files were left out (0 when the repository is within the limit). */
  dropped: number;
  /** What was kept and why, for the step detail; undefined when nothing was dropped. */
  note?: string;
}

/**
 * Keeps at most `max` files of a repository too large to search whole: files the issue names
 * (by path or file name) first, then source files whose path shares the issue's words, then
 * the remaining source files and other files, shallowest first. Order within the kept set is the
 * input order, so the ranking does not depend on this choice beyond membership.
 */
export function limitFiles(files: readonly RepoFile[], title: string, body: string, max: number): LimitedFiles {
  if (files.length <= max) return { files: [...files], dropped: 0 };
  const issue = parseIssue(title, body);
  const named = new Set<string>();
  for (const m of issue.paths) {
    const tail = m.text.replace(/\\/g, "/").split("/").filter(Boolean).slice(-2).join("/");
    if (tail) named.add(tail);
  }
  const priority = (f: RepoFile): number => {
    const p = f.path;
    for (const n of named) if (p === n || p.endsWith(`/${n}`)) return 0;
    const code = isCodePath(p) && !isTestPath(p);
    const overlap = code ? pathTerms(p).filter((t) => issue.terms.has(t)).length : 0;
    return code ? (overlap > 0 ? 1 - Math.min(overlap, 9) / 10 : 2) : 3;
  };
  const ranked = files
    .map((f, i) => ({ i, pr: priority(f), depth: f.path.split("/").length }))
    .sort((a, b) => a.pr - b.pr || a.depth - b.depth || a.i - b.i)
    .slice(0, max)
    .map((x) => x.i)
    .sort((a, b) => a - b);
  const kept = ranked.map((i) => files[i]).filter((f): f is RepoFile => f !== undefined);
  const dropped = files.length - kept.length;
  return {
    files: kept,
    dropped,
    note:
      `The repository has ${files.length.toLocaleString("en-US")} files, over the limit of ` +
      `${max.toLocaleString("en-US")} (LOCALIZE_MAX_FILES): searched the files the issue names, source files whose ` +
      `path shares its words, then the shallowest; ${dropped.toLocaleString("en-US")} files were not searched`,
  };
}
