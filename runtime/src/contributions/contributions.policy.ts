/** What a repository's contribution rules say about AI-assisted contributions. */
export type PolicyKind = "refuse" | "require-disclosure" | "require-draft" | "note";

export interface PolicyStatement {
  kind: PolicyKind;
  /** The sentence the statement was found in, as written (markdown markers trimmed). */
  sentence: string;
}

const AI =
  /\b(?:AI|A\.I\.|LLMs?|GPT|ChatGPT|Copilot|Claude|Gemini|machine[- ]generated|(?:AI|LLM)[- ](?:generated|assisted|written|authored|tools?|agents?)|generative|language models?|coding (?:agents?|assistants?))\b/i;
const HUMAN_ONLY = /\b(?:only|must be|solely)\s+(?:be\s+)?(?:written|authored|created|made)\s+by\s+(?:a\s+)?humans?\b/i;
const REFUSE =
  /\b(?:not (?:be )?accepted|(?:do|does|will) not (?:accept|merge|review)|won't (?:accept|merge|review)|will be (?:closed|rejected)|(?:are|is) (?:banned|prohibited|forbidden|not allowed|not permitted|not welcome)|(?:no|ban(?:ning)?) (?:AI|LLM)|reject(?:ed)?)\b/i;
const DRAFT = /\bdrafts?\b/i;
const DISCLOSE =
  /\b(?:disclos(?:e|ed|ure)|must (?:state|mention|declare|note|indicate|say)|clearly (?:state|mark|label)|label(?:led)? as|declare)\b/i;
const MENTION = /\b(?:humans?|reviewed by|sign[- ]off|understand)\b/i;

/**
 * `text` with each HTML comment replaced by a space; an unclosed `<!--` and what follows it stay.
 * Same result as `replace(/<!--[\s\S]*?-->/g, " ")`, without that pattern's rescan to the end of
 * the text from every unclosed `<!--` (quadratic on a line of them).
 */
function dropComments(text: string): string {
  let out = "";
  let from = 0;
  for (;;) {
    const open = text.indexOf("<!--", from);
    if (open < 0) break;
    const close = text.indexOf("-->", open + 4);
    // No `-->` after this `<!--` means none after any later one either.
    if (close < 0) break;
    out += `${text.slice(from, open)} `;
    from = close + 3;
  }
  return out + text.slice(from);
}

/**
 * `text` with every whitespace run that holds a line break replaced by one space: the result of
 * the regex "blanks, newline, blanks" replaced globally by a space, without that regex's rescan of
 * a long run of tabs or spaces from each of its positions (quadratic). Each line is trimmed once
 * on its joined sides, and a blank line inside the run adds nothing.
 */
function joinLines(text: string): string {
  const lines = text.split("\n");
  if (lines.length === 1) return text;
  const first = lines[0] ?? "";
  const last = lines[lines.length - 1] ?? "";
  const middle = lines
    .slice(1, -1)
    .map((line) => line.trim())
    .filter((line) => line !== "");
  return [first.trimEnd(), ...middle, last.trimStart()].join(" ");
}

/** Splits markdown into sentences: one per list item or paragraph sentence, markup trimmed, headings left out. */
export function sentences(markdown: string): string[] {
  const text = dropComments(markdown).replace(/\r\n?/g, "\n");
  return (
    text
      .split(/\n\s*\n|\n(?=\s*(?:[-*+]|\d+\.|#{1,6})\s)/)
      // Headings name a topic ("AI policy") but state no rule.
      .filter((block) => !/^\s*#{1,6}\s/.test(block))
      .map((block) => block.replace(/^\s*(?:[-*+]|\d+\.|>)\s+/, ""))
      .map(joinLines)
      .flatMap((block) => block.split(/(?<=[.!?])\s+(?=[A-Z*_`"(])/))
      .map((s) => s.replace(/[*_`]+/g, "").trim())
      .filter((s) => s.length > 0)
  );
}

/** The strictest kind a single sentence expresses, or null when it says nothing about AI contributions. */
export function classifySentence(sentence: string): PolicyKind | null {
  if (HUMAN_ONLY.test(sentence)) return "refuse";
  if (!AI.test(sentence)) return null;
  if (REFUSE.test(sentence) && !DISCLOSE.test(sentence) && !DRAFT.test(sentence)) return "refuse";
  if (DRAFT.test(sentence)) return "require-draft";
  if (DISCLOSE.test(sentence)) return "require-disclosure";
  if (REFUSE.test(sentence) || MENTION.test(sentence) || /\b(?:AI|LLM|Copilot|ChatGPT)\b/.test(sentence)) return "note";
  return null;
}

/** Every AI-policy statement in a document, in reading order. */
export function matchPolicy(markdown: string): PolicyStatement[] {
  return sentences(markdown).flatMap((sentence) => {
    const kind = classifySentence(sentence);
    return kind ? [{ kind, sentence: sentence.length > 400 ? `${sentence.slice(0, 397)}...` : sentence }] : [];
  });
}
