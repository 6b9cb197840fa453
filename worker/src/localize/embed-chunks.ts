import { cutLines } from "./cut-lines";

/** Version of the cutting below; part of the vector cache key, so changing the cut re-embeds. */
export const CHUNKER = "toplevel-60-v1";

/** A piece of a file to embed, lines 1-based and inclusive. */
export interface TextChunk {
  chunk: number;
  startLine: number;
  endLine: number;
  text: string;
}

const MAX_LINES = 60;
/** A chunk shorter than this is not closed at a top-level definition (keeps small functions together). */
const MIN_LINES = 15;
/** At most this many chunks a file (the first 2,400 lines or so). */
const MAX_CHUNKS = 40;
/** Characters of one chunk sent to the model; code embedding models take 512 to 8k tokens. */
const MAX_CHARS = 2_400;
/** A line at column 0 that starts something (not a closing bracket or `end`). */
const TOP_LEVEL = /^(?![\s})\]]|end\b|else\b|except\b|finally\b|elif\b|catch\b)\S/;

/**
 * Cuts a file into chunks of at most 60 lines, preferring to cut where a top-level statement
 * (definition, class, export) begins, so a chunk mostly holds whole symbols. Each chunk's text
 * starts with the file's path, which the embedding then also sees.
 */
export function chunkFile(path: string, content: string): TextChunk[] {
  const lines = content.split("\n");
  const rule = { minLines: MIN_LINES, maxLines: MAX_LINES, startsPiece: (l: string) => TOP_LEVEL.test(l) };
  const chunks: TextChunk[] = [];
  for (const [start, end] of cutLines(lines, rule)) {
    const body = lines.slice(start, end).join("\n");
    if (!body.trim() || chunks.length >= MAX_CHUNKS) continue;
    chunks.push({
      chunk: chunks.length,
      startLine: start + 1,
      endLine: end,
      text: `${path}\n${body}`.slice(0, MAX_CHARS),
    });
  }
  return chunks;
}
