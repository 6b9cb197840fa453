/**
 * Characters that change the order in which the text around them is shown (bidirectional
 * controls), or do not show at all. In code they make a line read differently from how it runs
 * ("Trojan Source"): `"user‮ ⁦// Check if admin⁩ ⁦"` shows as a comment after the string.
 */
const HIDDEN = /[\p{Bidi_Control}\u200B\u2060-\u2064\uFEFF\u00AD]/gu;
const BIDI = /\p{Bidi_Control}/gu;

/** `text` cut into plain runs and hidden characters, each hidden one as its code point (`U+202E`). */
export function splitHidden(text: string): { text: string; hidden?: string }[] {
  const out: { text: string; hidden?: string }[] = [];
  let from = 0;
  for (const m of text.matchAll(HIDDEN)) {
    if (m.index > from) out.push({ text: text.slice(from, m.index) });
    out.push({ text: m[0], hidden: `U+${(m[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}` });
    from = m.index + m[0].length;
  }
  if (from < text.length) out.push({ text: text.slice(from) });
  return out;
}

/** How many bidirectional controls `content` has beyond those already in `original`. */
export function addedBidiControls(content: string, original: string): number {
  const count = (s: string) => s.match(BIDI)?.length ?? 0;
  return Math.max(0, count(content) - count(original));
}
