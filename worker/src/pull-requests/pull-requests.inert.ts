/**
 * Model text rendered inert before it goes upstream: a pull request body is read by GitHub, which
 * notifies every `@user` and `@org/team`, cross-links every `#123` and `owner/repo#123`, and hides
 * HTML comments from readers. None of that may be triggered by what a model wrote.
 */

/** GitHub refuses bodies over 65536 characters; we stay clearly under it. */
export const MAX_BODY_CHARS = 60_000;
/** Longest one model-written section may be in a body. */
export const MAX_MODEL_TEXT_CHARS = 20_000;
export const CLIPPED_NOTE = "_(Shortened: the full text is in Fixloop.)_";

const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
// A mention: `@login` or `@org/team`, not part of an email address or a word.
const MENTION = /(^|[^\w@`])(@[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(?:\/[A-Za-z0-9][\w.-]*)?)/g;
// A reference: `#123`, `GH-123` or `owner/repo#123`, not an HTML entity (`&#123;`) or part of a word.
const REFERENCE = /(^|[^\w&`/#.-])((?:[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*)?#\d+|GH-\d+)\b/g;

// A link to an issue, pull request or discussion: GitHub shows it as a reference and backlinks it.
const ISSUE_URL =
  /(^|[^\w`<])(<?https?:\/\/(?:www\.)?github\.com\/[\w.-]+\/[\w.-]+\/(?:issues|pull|discussions)\/\d+[^\s`)>\]]*>?)/gi;

/** `text` as one inline code span, fenced with more backticks than it contains in a row. */
export function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const fence = "`".repeat(longest + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

function inertLine(line: string): string {
  // Existing code spans are already inert: only the text between them is rewritten.
  return line
    .split(/(`+[^`]*`+)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(ISSUE_URL, (_m, pre: string, url: string) => `${pre}${codeSpan(url)}`)
            .replace(MENTION, (_m, pre: string, at: string) => `${pre}${codeSpan(at)}`)
            .replace(REFERENCE, (_m, pre: string, ref: string) => `${pre}${codeSpan(ref)}`),
    )
    .join("");
}

/** The fence a markdown text leaves open at its end, if any. */
export function openFence(text: string): string | null {
  let fence: string | null = null;
  for (const line of text.split("\n")) {
    const mark = FENCE.exec(line)?.[1];
    if (!mark) continue;
    if (!fence) fence = mark;
    else if (mark[0] === fence[0] && mark.length >= fence.length) fence = null;
  }
  return fence;
}

/** Text cut at a line end to at most `max` characters, with a note saying so. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const room = Math.max(0, max - CLIPPED_NOTE.length - 16);
  const cut = text.lastIndexOf("\n", room);
  const kept = text.slice(0, cut > 0 ? cut : room).trimEnd();
  // A cut inside a code block closes it, so the note and what follows are not swallowed.
  const fence = openFence(kept);
  return `${kept}${fence ? `\n${fence}` : ""}\n\n${CLIPPED_NOTE}`;
}

/** Model text made safe to show upstream: bounded, comments stripped, mentions and references in code spans. */
export function inert(text: string, max = MAX_MODEL_TEXT_CHARS): string {
  const lines = clip(text.replace(COMMENT, ""), max).split("\n");
  let fence: string | null = null;
  const out = lines.map((line) => {
    const open = FENCE.exec(line)?.[1];
    if (fence) {
      if (open && open[0] === fence[0] && open.length >= fence.length) fence = null;
      return line;
    }
    if (open) {
      fence = open;
      return line;
    }
    return inertLine(line);
  });
  // An unclosed fence would swallow the rest of the body; close it here.
  if (fence) out.push(fence);
  return out.join("\n");
}

/**
 * An issue's title made plain for a commit message and a pull request title, which are no markdown:
 * a code span would not stop GitHub there. Merged to the default branch, a commit message's
 * "closes #3" or "fixes other/repo#9" closes that issue, and its references link back. The title is
 * the issue author's, so its references and mentions lose their `#` and `@` to the full-width signs
 * (＃3, ＠team): read the same, acted on by nothing. Issue links lose their scheme.
 */
export function plainTitle(text: string): string {
  return text
    .replace(ISSUE_URL, (_m, pre: string, url: string) => `${pre}${url.replace(/^<?https?:\/\/(?:www\.)?/i, "")}`)
    .replace(MENTION, (_m, pre: string, at: string) => `${pre}＠${at.slice(1)}`)
    .replace(REFERENCE, (_m, pre: string, ref: string) => `${pre}${ref.replace("#", "＃").replace(/^GH-/i, "GH‑")}`);
}
