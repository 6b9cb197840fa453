/** 1-based rank of the last gold file in `order` (null: a gold file is absent, or there is none). */
export function goldRankIn(order: readonly string[], gold: readonly string[]): number | null {
  let worst = 0;
  for (const g of gold) {
    const k = order.indexOf(g);
    if (k < 0) return null;
    worst = Math.max(worst, k + 1);
  }
  return gold.length ? worst : null;
}

/**
 * The same rank when rows are ordered by score, best first (ties: row order); a row scored
 * `undefined` is not ranked. The one rank every learner and fusion of the bench reports recall from.
 */
export function rankOfLastGold(
  rows: readonly { path: string }[],
  gold: readonly string[],
  score: (i: number) => number | undefined,
): number | null {
  const scored = rows.flatMap((r, i) => {
    const s = score(i);
    return s === undefined ? [] : [{ p: r.path, s, i }];
  });
  scored.sort((a, b) => b.s - a.s || a.i - b.i);
  return goldRankIn(
    scored.map((x) => x.p),
    gold,
  );
}
