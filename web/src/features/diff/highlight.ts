import type { Parser } from "@lezer/common";
import { classHighlighter, highlightCode } from "@lezer/highlight";
import { parser as jsParser } from "@lezer/javascript";
import { parser as pyParser } from "@lezer/python";

/** A run of text and its `tok-*` highlight classes (empty for plain text). */
export interface Token {
  text: string;
  cls: string;
}

/** Longest text we parse for colours; larger files are shown plain. */
const MAX_CHARS = 300_000;

function parserFor(filename: string): Parser | null {
  const js = /\.(m|c)?([jt])s(x?)$/.exec(filename);
  if (js)
    return jsParser.configure({ dialect: [js[2] === "t" ? "ts" : "", js[3] ? "jsx" : ""].filter(Boolean).join(" ") });
  if (/\.pyi?$/.test(filename)) return pyParser;
  return null;
}

/** Each line of `code` as highlighted tokens, with the same grammars the editor uses; null when the language is not known. */
export function highlightLines(filename: string, code: string): Token[][] | null {
  const parser = parserFor(filename);
  if (!parser || code.length > MAX_CHARS) return null;
  const lines: Token[][] = [[]];
  highlightCode(
    code,
    parser.parse(code),
    classHighlighter,
    (text, cls) => lines[lines.length - 1]?.push({ text, cls }),
    () => lines.push([]),
  );
  return lines;
}
