import type { reviewAddressing } from "@fixloop/db";

type Comment = reviewAddressing.OpenReviewComment;
type Check = Awaited<ReturnType<typeof reviewAddressing.failingChecks>>[number];

/** Longest text taken from one comment, diff hunk or check output, and from the whole request. */
const PART_MAX = 2000;
const FEEDBACK_MAX = 16_000;
/** A check's output is longer (summary and log tail): its start and its end are kept, the middle cut. */
const CHECK_MAX = 6000;
const CHECKS_MAX = 3;

const cut = (s: string | null, max = PART_MAX) => {
  const t = (s ?? "").trim();
  return t.length > max ? `${t.slice(0, max)}\n[cut]` : t;
};

const ends = (s: string | null, max: number) => {
  const t = (s ?? "").trim();
  return t.length > max ? `${t.slice(0, max / 4)}\n[cut]\n${t.slice(t.length - (max * 3) / 4)}` : t;
};

/**
 * The refinement request made of review comments (with the file, line and diff hunk each was
 * left on) and the failing checks' output. It is third-party text: the prompt cleans and fences
 * it as untrusted feedback, exactly like issue text and typed feedback.
 */
export function reviewFeedback(comments: Comment[], checks: Check[]): string {
  const parts: string[] = [];
  if (comments.length)
    parts.push(
      `Address these review comments on the pull request (each with the file, line and diff lines it was left on):`,
    );
  comments.forEach((c, i) => {
    const where = `${c.path ?? "the pull request"}${c.line != null ? ` line ${c.line}` : ""}`;
    const hunk = c.diff_hunk ? `\nDiff hunk:\n${cut(c.diff_hunk)}` : "";
    parts.push(`Review comment ${i + 1} by @${c.actor ?? "a reviewer"} on ${where}:${hunk}\nComment:\n${cut(c.body)}`);
  });
  // At most three checks, each cut to its budget: a pile of failing checks leaves room for the review.
  for (const c of checks.slice(0, CHECKS_MAX))
    parts.push(
      `Failing check "${cut(c.title, 200)}" (${c.state ?? "failure"}):\n${ends(c.body, CHECK_MAX) || "No output was reported"}`,
    );
  const text = parts.join("\n\n");
  return text.length > FEEDBACK_MAX ? `${text.slice(0, FEEDBACK_MAX)}\n[cut]` : text;
}
