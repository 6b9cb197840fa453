import { diffLines } from "diff";
import { countDiffParts, partLines as lines } from "@fixloop/contract";

export interface Row {
  left: { n: number; text: string; removed: boolean } | null;
  right: { n: number; text: string; added: boolean } | null;
}

/** Pairs removed and added lines so a change reads across, unchanged lines on both sides. */
export function sideBySide(oldText: string, newText: string): { rows: Row[]; added: number; removed: number } {
  const rows: Row[] = [];
  let l = 1;
  let r = 1;
  let pendingRemoved: string[] = [];
  const flush = (addedLines: string[]) => {
    const n = Math.max(pendingRemoved.length, addedLines.length);
    for (let i = 0; i < n; i++) {
      const a = pendingRemoved[i];
      const b = addedLines[i];
      rows.push({
        left: a === undefined ? null : { n: l++, text: a, removed: true },
        right: b === undefined ? null : { n: r++, text: b, added: true },
      });
    }
    pendingRemoved = [];
  };
  const parts = diffLines(oldText, newText);
  for (const part of parts) {
    const ls = lines(part.value);
    if (part.removed) pendingRemoved.push(...ls);
    else if (part.added) {
      flush(ls);
    } else {
      flush([]);
      for (const t of ls)
        rows.push({ left: { n: l++, text: t, removed: false }, right: { n: r++, text: t, added: false } });
    }
  }
  flush([]);
  // The counts the pull request body gives for the same change (one counting rule, in the contract).
  return { rows, ...countDiffParts(parts) };
}

export interface UnifiedRow {
  kind: "context" | "removed" | "added";
  /** Line number in the old text (context and removed lines). */
  old: number | null;
  /** Line number in the new text (context and added lines). */
  new: number | null;
  text: string;
}

/** One column: removed lines, then the lines that replace them, between unchanged lines. */
export function unified(oldText: string, newText: string): UnifiedRow[] {
  const rows: UnifiedRow[] = [];
  let o = 1;
  let n = 1;
  for (const part of diffLines(oldText, newText)) {
    for (const text of lines(part.value)) {
      if (part.removed) rows.push({ kind: "removed", old: o++, new: null, text });
      else if (part.added) rows.push({ kind: "added", old: null, new: n++, text });
      else rows.push({ kind: "context", old: o++, new: n++, text });
    }
  }
  return rows;
}
