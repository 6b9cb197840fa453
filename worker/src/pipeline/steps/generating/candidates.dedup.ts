import type { FileChange, GeneratedCandidate } from "@fixloop/contract";

/** A file's text with line endings unified and whitespace ignored: two patches that differ only there are the same patch. */
const normaliseText = (s: string) =>
  s
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((l) => l.replace(/\s+/g, ""))
    .filter((l) => l !== "")
    .join("\n");

/** The key two candidates share when they change the same files to the same code (whitespace and line endings aside). */
export function normalisedPatch(files: readonly FileChange[]): string {
  return [...files]
    .sort((a, b) => a.filename.localeCompare(b.filename))
    .map((f) => `${f.action} ${f.filename}\n${f.action === "delete" ? "" : normaliseText(f.content)}`)
    .join("\n\0\n");
}

/**
 * Folds candidates with the same normalised patch into the first of them: its `duplicates` lists
 * the others (each one more vote for it). Order is kept.
 */
export function dedupeCandidates(all: readonly GeneratedCandidate[]): GeneratedCandidate[] {
  const byKey = new Map<string, GeneratedCandidate>();
  for (const c of all) {
    const key = normalisedPatch(c.filesChanged);
    const seen = byKey.get(key);
    if (seen) seen.duplicates.push(c.n, ...c.duplicates);
    else byKey.set(key, { ...c, duplicates: [...c.duplicates] });
  }
  return [...byKey.values()];
}
