/**
 * The non-Python set's two halves, never pooled: issues whose text is the issue as filed, and
 * fix-commit messages written by the fixer (which can name the changed symbol). Each gets its own
 * recall rows beside plain BM25 over the same issues.
 */
import type { Figure } from "../report";
import { type InstanceResult, methodFigures } from "./eval";
import { figures } from "./figures";
import type { Fixture } from "./fixtures";
import { type GroupFigures, groupFigures } from "./groups";

export const TEXT_SETS = [
  { source: "issue", name: "non-Python issues (text as filed)" },
  { source: "commit", name: "non-Python fix-commit messages" },
] as const;

export interface TextSet {
  source: Fixture["text_source"];
  name: string;
  rows: InstanceResult[];
}

/** The evaluated rows of each text source, in TEXT_SETS order (a row whose fixture is unknown is in neither). */
export function splitByTextSource(fixtures: readonly Fixture[], rows: readonly InstanceResult[]): TextSet[] {
  const source = new Map(fixtures.map((f) => [f.instance_id, f.text_source]));
  return TEXT_SETS.map((s) => ({ ...s, rows: rows.filter((r) => source.get(r.id) === s.source) }));
}

const PER_LANGUAGE = ["recall@1", "recall@5", "median time per issue (in-process, cold)"];

/**
 * Recall@1/3/5/10 and median time of each set against plain BM25, then recall@1/@5 per language of
 * the issue-text set. A set with no evaluated issue has no rows.
 */
export function nonPyFigures(fixtures: readonly Fixture[], rows: readonly InstanceResult[]): Figure[] {
  const out: Figure[] = [];
  for (const set of splitByTextSource(fixtures, rows)) {
    const { localizer, bm25 } = methodFigures(set.rows, ["localizer", "bm25"]);
    if (!set.rows.length || !localizer || !bm25) continue;
    out.push(...figures(`localize ${set.name} (${set.rows.length})`, localizer, bm25, false).slice(0, 5));
    if (set.source !== "issue") continue;
    for (const g of groupFigures(set.name, set.rows, (r) => r.language ?? "?"))
      out.push(
        ...figures(`localize ${set.name}, ${g.group} (${g.issues})`, g.ours, g.bm25, false).filter((f) =>
          PER_LANGUAGE.includes(f.name),
        ),
      );
  }
  return out;
}

/** Per-repository and per-language recall of each set, for the appendix table. */
export function nonPyGroups(fixtures: readonly Fixture[], rows: readonly InstanceResult[]): GroupFigures[] {
  return splitByTextSource(fixtures, rows).flatMap((set) => [
    ...groupFigures(set.name, set.rows, (r) => r.repo),
    ...groupFigures(set.name, set.rows, (r) => `(${r.language ?? "?"})`),
  ]);
}
