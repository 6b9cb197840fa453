import { type InstanceResult, type MethodFigures, methodFigures } from "./eval";

export interface GroupFigures {
  set: string;
  group: string;
  issues: number;
  ours: MethodFigures;
  bm25: MethodFigures;
}

/** The localizer's and BM25's figures per value of `key` (repository, language), in first-seen order. */
export function groupFigures(
  set: string,
  rows: readonly InstanceResult[],
  key: (r: InstanceResult) => string,
): GroupFigures[] {
  const groups = new Map<string, InstanceResult[]>();
  for (const r of rows) groups.set(key(r), [...(groups.get(key(r)) ?? []), r]);
  return [...groups].flatMap(([group, members]) => {
    const { localizer, bm25 } = methodFigures(members, ["localizer", "bm25"]);
    return localizer && bm25 ? [{ set, group, issues: members.length, ours: localizer, bm25 }] : [];
  });
}

const num = (x: number) => x.toFixed(2);

/**
 * A compact table, one line per group: recall@1 and @5 of ours beside plain BM25 and the
 * difference, so a change that helps one project and hurts another shows.
 */
export function groupTable(title: string, groups: readonly GroupFigures[]): string {
  const head = ["set", "group", "issues", "R@1 ours", "R@1 BM25", "R@5 ours", "R@5 BM25", "R@5 diff", "median s"];
  const rows = groups.map((g) => {
    const diff = g.ours.recall["@5"] - g.bm25.recall["@5"];
    return [
      g.set,
      g.group,
      String(g.issues),
      num(g.ours.recall["@1"]),
      num(g.bm25.recall["@1"]),
      num(g.ours.recall["@5"]),
      num(g.bm25.recall["@5"]),
      `${diff >= 0 ? "+" : ""}${num(diff)}`,
      num(g.ours.medianSeconds),
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
  return [title, line(head), ...rows.map(line)].join("\n");
}
