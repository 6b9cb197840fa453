export interface CutRule {
  /** A piece is never cut shorter than this many lines at a start line. */
  minLines: number;
  /** A piece is cut after this many lines wherever it is. */
  maxLines: number;
  /** True for a line where a new piece may begin (a definition, a top-level statement). */
  startsPiece: (line: string) => boolean;
}

/**
 * Cuts a file's lines into consecutive pieces `[start, end)` (0-based), at lines where
 * `startsPiece` holds once the piece has `minLines`, and at `maxLines` regardless. The lexical
 * chunks of the ranker and the embedding chunks both cut with it, each with its own rule.
 */
export function cutLines(lines: readonly string[], rule: CutRule): [start: number, end: number][] {
  const out: [number, number][] = [];
  let start = 0;
  for (let i = 1; i < lines.length; i++) {
    const size = i - start;
    if (size >= rule.maxLines || (size >= rule.minLines && rule.startsPiece(lines[i] ?? ""))) {
      out.push([start, i]);
      start = i;
    }
  }
  if (lines.length > start) out.push([start, lines.length]);
  return out;
}
