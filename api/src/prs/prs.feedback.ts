import type { reviewAddressing } from "@fixloop/db";

type Comment = reviewAddressing.OpenReviewComment;
type Check = Awaited<ReturnType<typeof reviewAddressing.failingChecks>>[number];

/** Longest text taken from one comment, diff hunk or check output, and from the whole request. */
const PART_MAX = 2000;
const FEEDBACK_MAX = 16_000;

const cut = (s: string | null, max = PART_MAX) => {
  const t = (s ?? "").trim();
  return t.length > max ? `${t.slice(0, max)}\n[cut]` : t;
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
  for (const c of checks)
    parts.push(
      `Failing check "${cut(c.title, 200)}" (${c.state ?? "failure"}):\n${cut(c.body) || "No output was reported"}`,
    );
  const text = parts.join("\n\n");
  return text.length > FEEDBACK_MAX ? `${text.slice(0, FEEDBACK_MAX)}\n[cut]` : text;
}
