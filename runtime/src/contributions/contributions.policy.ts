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

/** Splits markdown into sentences: one per list item or paragraph sentence, markup trimmed, headings left out. */
export function sentences(markdown: string): string[] {
  const text = markdown.replace(/<!--[\s\S]*?-->/g, " ").replace(/\r\n?/g, "\n");
  return (
    text
      .split(/\n\s*\n|\n(?=\s*(?:[-*+]|\d+\.|#{1,6})\s)/)
      // Headings name a topic ("AI policy") but state no rule.
      .filter((block) => !/^\s*#{1,6}\s/.test(block))
      .map((block) => block.replace(/^\s*(?:[-*+]|\d+\.|>)\s+/, "").replace(/\s*\n\s*/g, " "))
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
