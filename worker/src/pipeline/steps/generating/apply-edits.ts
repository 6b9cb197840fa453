import { type FileChange, type EditFailure, type GeneratedSolution } from "@fixloop/contract";

/** Applies one edit; the search text must occur exactly once (exactly, or ignoring trailing spaces). */
function applyOne(text: string, search: string, replace: string): string {
  const first = text.indexOf(search);
  if (first >= 0) {
    if (text.indexOf(search, first + 1) >= 0) throw new Error("search text occurs more than once");
    return text.slice(0, first) + replace + text.slice(first + search.length);
  }
  const strip = (s: string) =>
    s
      .split("\n")
      .map((l) => l.trimEnd())
      .join("\n");
  const loose = strip(text);
  const at = loose.indexOf(strip(search));
  if (at < 0) throw new Error("search text not found");
  if (loose.indexOf(strip(search), at + 1) >= 0) throw new Error("search text occurs more than once");
  return loose.slice(0, at) + replace + loose.slice(at + strip(search).length);
}

/**
 * Turns the model's edits into full new file contents against the originals.
 * `originals` maps existing paths to their text; unknown paths are treated as absent.
 * `partial` names files the model saw only in part (skeletons), `unseen` files it was not shown at all
 * (read from the repository because its edits name them): rewriting either whole is refused, and an
 * unseen file is never deleted.
 */
export function applyGeneratedFiles(
  files: GeneratedSolution["files"],
  originals: Map<string, string>,
  partial: ReadonlySet<string> = new Set(),
  unseen: ReadonlySet<string> = new Set(),
): { changes: FileChange[]; failures: EditFailure[] } {
  const changes: FileChange[] = [];
  const failures: EditFailure[] = [];
  for (const f of files) {
    const original = originals.get(f.filename);
    if (f.action === "create") {
      changes.push({
        filename: f.filename,
        action: "create",
        content: f.content ?? f.edits.map((e) => e.replace).join("\n"),
        originalContent: "",
      });
      continue;
    }
    if (original === undefined || (unseen.has(f.filename) && f.action === "delete")) {
      failures.push({
        filename: f.filename,
        search: "",
        reason: `${f.filename} is not among the files the model was shown`,
      });
      continue;
    }
    if (f.action === "delete") {
      changes.push({ filename: f.filename, action: "delete", content: "", originalContent: original });
      continue;
    }
    const rewrite = f.content !== undefined && f.edits.length === 0;
    if (rewrite && (partial.has(f.filename) || unseen.has(f.filename))) {
      const shown = unseen.has(f.filename) ? `${f.filename} was not shown` : `only part of ${f.filename} was shown`;
      failures.push({
        filename: f.filename,
        search: "",
        reason: `${shown}; change it with search/replace edits, not its whole content`,
      });
      continue;
    }
    let text = rewrite ? (f.content ?? original) : original;
    for (const e of f.edits) {
      try {
        text = applyOne(text, e.search, e.replace);
      } catch (err) {
        failures.push({ filename: f.filename, search: e.search, reason: (err as Error).message });
      }
    }
    changes.push({ filename: f.filename, action: "modify", content: text, originalContent: original });
  }
  return { changes, failures };
}
