import type { FileSymbol } from "./symbols";

/** Marks a run of lines left out of a skeleton; the model stand-in and the prompt rules name it. */
export const ELIDED = "…";

/** Runs of top-level lines outside any symbol longer than this are elided too (long literals, tables). */
const MAX_LOOSE_RUN = 30;

/**
 * A line-numbered view of a file that shows the full text of the `keep` symbols (indices into
 * `symbols`), the signature or header of every other symbol with its body elided, and the code
 * outside symbols (imports, constants). Elided runs read `   | … lines a-b` (no line number). Line numbers are the
 * real file's, so search/replace edits copied from the shown text apply to the real file.
 */
export function skeleton(text: string, symbols: readonly FileSymbol[], keep: ReadonlySet<number>): string {
  const lines = text.split("\n");
  const show = new Uint8Array(lines.length).fill(1);
  const set = (from: number, to: number, v: 0 | 1): void => {
    for (let l = Math.max(from, 1); l <= Math.min(to, lines.length); l++) show[l - 1] = v;
  };
  const insideKept = (i: number): boolean => {
    for (let p = symbols[i]?.parent; p !== undefined; p = symbols[p]?.parent) if (keep.has(p)) return true;
    return false;
  };
  // Outermost first, so an inner symbol's header shows through its container's elided body.
  symbols.forEach((s, i) => {
    if (insideKept(i)) return;
    if (keep.has(i)) return set(s.startLine, s.endLine, 1);
    set(s.startLine, s.headerEnd, 1);
    set(s.headerEnd + 1, s.endLine, 0);
    // A closing `}` or `end` keeps the shape readable.
    if (s.endLine > s.headerEnd && /^[\s})\];]*$|^\s*end\s*$/.test(lines[s.endLine - 1] ?? "x"))
      set(s.endLine, s.endLine, 1);
  });
  const covered = new Uint8Array(lines.length);
  for (const s of symbols) covered.fill(1, s.startLine - 1, s.endLine);
  for (let l = 0; l < lines.length;) {
    let end = l;
    while (end < lines.length && !covered[end]) end++;
    if (end - l > MAX_LOOSE_RUN) show.fill(0, l + 5, end - 2);
    l = Math.max(end, l + 1);
  }
  const width = String(lines.length).length;
  const out: string[] = [];
  for (let l = 0; l < lines.length;) {
    if (show[l]) {
      out.push(`${String(l + 1).padStart(width, " ")} | ${lines[l]}`);
      l++;
      continue;
    }
    let end = l;
    while (end < lines.length && (!show[end] || (lines[end] ?? "").trim() === "")) end++;
    while (end > l + 1 && show[end - 1] && (lines[end - 1] ?? "").trim() === "") end--;
    // A marker costs a line: a single hidden line, or only blank ones, is shown instead.
    if (end - l === 1 || lines.slice(l, end).every((x) => x.trim() === "")) {
      show.fill(1, l, end);
      continue;
    }
    const indent = /^\s*/.exec(lines[l] ?? "")?.[0] ?? "";
    out.push(`${" ".repeat(width)} | ${indent}${ELIDED} ${end === l + 1 ? `line ${end}` : `lines ${l + 1}-${end}`}`);
    l = end;
  }
  return out.join("\n");
}
