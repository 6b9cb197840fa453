/**
 * Code-aware tokenization: identifiers are kept whole (lower-cased) and also split into their
 * snake_case / camelCase parts, so `RidgeClassifierCV` matches both itself and "ridge".
 */
const WORD = /[A-Za-z_][A-Za-z0-9_]*/g;

const STOP = new Set(
  (
    "a an and are as at be but by for from has have if in into is it its of on or that the " +
    "this to was were will with not no do does did can could should would we you they i me my " +
    "our your there here than then so such also when which who what how why all any some " +
    "self cls def return import none true false null nil var let const new else elif end " +
    "use using pass try except catch finally raise throw public private protected static " +
    "void int str string bool this that these those get set am been being just only very " +
    "more most other same one two like see e g eg ie etc us them he she his her"
  ).split(" "),
);

/** Words after which the next identifier is being defined (a cheap, language-agnostic hint). */
export const DEF_KEYWORDS: ReadonlySet<string> = new Set([
  "class",
  "def",
  "function",
  "func",
  "fn",
  "struct",
  "interface",
  "enum",
  "trait",
  "module",
  "type",
  "record",
  "object",
  "macro_rules",
]);

export const isStopword = (t: string): boolean => STOP.has(t);

/** Lower-cased parts of an identifier: `HTTPServer_error2` → http, server, error2. */
export function identifierParts(word: string): string[] {
  const parts: string[] = [];
  for (const chunk of word.split("_")) {
    if (chunk === "") continue;
    const m = chunk.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+|[A-Z]/g);
    for (const p of m ?? [chunk]) parts.push(p.toLowerCase());
  }
  return parts;
}

const CAMEL_HINT = /[a-z][A-Z]|[A-Z]{2}[a-z]|[a-zA-Z][0-9]/;

/** Index terms of one identifier: itself lower-cased, then its parts when it has several. */
export function wordTerms(word: string): string[] {
  const out: string[] = [];
  const lower = word.toLowerCase();
  if (lower.length > 1 && !STOP.has(lower)) out.push(lower);
  if (word.length > 3 && (word.includes("_") || CAMEL_HINT.test(word))) {
    const parts = identifierParts(word);
    if (parts.length > 1) for (const p of parts) if (p.length > 1 && !STOP.has(p)) out.push(p);
  }
  return out;
}

/**
 * Calls `onWord` for every identifier-like word of `text` (at most 64 characters), telling
 * whether it follows a definition keyword (`class Foo`, `def foo`). The localize threads run it too.
 */
export function forEachWord(
  text: string,
  onWord: (word: string, defined: boolean) => void,
  defKeywords: ReadonlySet<string> = DEF_KEYWORDS,
): void {
  const re = new RegExp(WORD.source, "g");
  let prev = "";
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const word = m[0];
    if (word.length > 64) {
      prev = "";
      continue;
    }
    onWord(word, defKeywords.has(prev));
    prev = word;
  }
}

/** Calls `emit` for every index term of `text`; `emitDef` gets identifiers being defined. */
export function forEachTerm(text: string, emit: (term: string) => void, emitDef?: (name: string) => void): void {
  forEachWord(text, (word, defined) => {
    if (defined && emitDef) emitDef(word);
    for (const t of wordTerms(word)) emit(t);
  });
}

/** Term counts of a text. */
export function termCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  forEachTerm(text, (t) => counts.set(t, (counts.get(t) ?? 0) + 1));
  return counts;
}

/**
 * Index terms of a repository path: every directory and file-name part. `segments` keeps each
 * path segment's terms for the next paths (most segments, directories, recur in many paths).
 */
export function pathTerms(path: string, segments?: Map<string, string[]>): string[] {
  const out = new Set<string>();
  for (const seg of path.split(/[/\\]/)) {
    let terms = segments?.get(seg);
    if (!terms) {
      const own: string[] = [];
      forEachTerm(seg.replace(/\.[^.]*$/, "").replace(/[-.]/g, "_"), (t) => own.push(t));
      terms = own;
      segments?.set(seg, own);
    }
    for (const t of terms) out.add(t);
  }
  return [...out];
}
