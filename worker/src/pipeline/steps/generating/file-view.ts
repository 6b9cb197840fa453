import { fileSymbols, skeleton } from "../../../localize";
import { numberLines } from "./prompt";

/** What the model is shown of one file: all of it, or a skeleton when it is over the size budget. */
export interface FileView {
  text: string;
  /** Whether lines were left out (the model must then edit by search/replace, never rewrite the file). */
  partial: boolean;
}

/** Files up to this many characters are shown whole in the solution prompt. */
export const FULL_FILE_CHARS = 16_000;

/**
 * The line-numbered view of a file: whole when it fits in `maxChars`, else a skeleton showing the
 * `keep` symbols (by name, best first) in full. Kept symbols are dropped from the end while the
 * view is over twice the budget; a file without symbols is cut at the budget.
 */
export async function fileView(
  path: string,
  content: string,
  maxChars: number,
  keep: string[] = [],
): Promise<FileView> {
  if (content.length <= maxChars) return { text: numberLines(content), partial: false };
  const symbols = await fileSymbols(path, content).catch(() => []);
  if (symbols.length === 0) return { text: cut(content, maxChars), partial: true };
  const names = [...keep];
  for (;;) {
    const kept = new Set(symbols.flatMap((s, i) => (names.includes(s.name) ? [i] : [])));
    const text = skeleton(content, symbols, kept);
    if (text.length <= 2 * maxChars || names.length <= 1) return { text, partial: true };
    names.pop();
  }
}

function cut(content: string, maxChars: number): string {
  const lines = content.split("\n");
  const numbered = numberLines(content).split("\n");
  const out: string[] = [];
  let used = 0;
  for (const line of numbered) {
    if (used + line.length > maxChars) break;
    out.push(line);
    used += line.length + 1;
  }
  const width = String(lines.length).length;
  out.push(`${" ".repeat(width)} | … lines ${out.length + 1}-${lines.length}`);
  return out.join("\n");
}
