import { z } from "zod";

/** What happened on one of Fixloop's pull requests after it was opened, as GitHub reported it. */
export const PULL_REQUEST_EVENT_KINDS = [
  "review",
  "review_comment",
  "commit",
  "check",
  "merged",
  "closed",
  "reopened",
] as const;
export const PullRequestEventKind = z.enum(PULL_REQUEST_EVENT_KINDS);
export type PullRequestEventKind = z.infer<typeof PullRequestEventKind>;

/** Longest text kept from a review or comment body; the rest is cut (GitHub allows 65,536). */
export const TIMELINE_TEXT_MAX = 8000;

/**
 * One timeline entry. `body` is a reviewer's text: untrusted, shown as text, never as HTML.
 * `sourceId` is GitHub's id of the thing (review, comment, commit sha, check run) so a
 * redelivery or a poll after a webhook adds nothing twice.
 */
export const PullRequestTimelineEntry = z.object({
  kind: PullRequestEventKind,
  sourceId: z.string().min(1).max(200),
  actor: z.string().max(100).nullable(),
  /** Review state (approved, changes_requested, commented) or check conclusion (success, failure…). */
  state: z.string().max(40).nullable(),
  /** Check name or commit message headline. */
  title: z.string().max(300).nullable(),
  body: z.string().max(TIMELINE_TEXT_MAX).nullable(),
  path: z.string().max(1000).nullable(),
  line: z.number().int().nullable(),
  url: z.string().max(2000).nullable(),
  occurredAt: z.string(),
  /** A review comment's diff hunk (the lines it was left on) and the comment whose thread it answers. */
  diffHunk: z.string().max(TIMELINE_TEXT_MAX).nullish(),
  inReplyTo: z.string().max(200).nullish(),
  /** Addressing a review comment (read only): asked for when, and the commit Fixloop pushed for it. */
  addressRequestedAt: z.string().nullish(),
  addressedCommit: z.string().max(64).nullish(),
});
export type PullRequestTimelineEntry = z.infer<typeof PullRequestTimelineEntry>;
