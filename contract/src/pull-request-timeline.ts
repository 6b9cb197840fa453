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

/** Check conclusions that ask for a fix: a failing check is addressed like a review comment. */
export const FAILING_CHECK_STATES = ["failure", "timed_out", "action_required", "startup_failure"] as const;
export const isFailingCheckState = (state: string | null | undefined) =>
  (FAILING_CHECK_STATES as readonly string[]).includes(state ?? "");

/** Longest part taken from a check's summary, from its text and from a job's log tail. */
export const CHECK_SUMMARY_MAX = 1500;
export const CHECK_LOG_TAIL_MAX = 4000;

// eslint-disable-next-line no-control-regex -- ANSI colour codes and control characters in CI logs are noise
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]|[\u0000-\u0008\u000B-\u001F\u007F]/g;

const head = (s: string, max: number) => (s.length > max ? `${s.slice(0, max)}\n[cut]` : s);
/** A log's last `max` characters, from a line start where there is one: the failure is at the end. */
export function logTail(s: string, max = CHECK_LOG_TAIL_MAX): string {
  const t = s.replace(ANSI, "").trim();
  if (t.length <= max) return t;
  const tail = t.slice(t.length - max);
  const nl = tail.indexOf("\n");
  return `[cut]\n${nl >= 0 && nl < max / 2 ? tail.slice(nl + 1) : tail}`;
}

/**
 * What a check run reported, as one bounded text: its output's title (unless it only repeats the
 * check's name), summary and text, and the tail of its job's log when one was read. Third-party
 * text: stored and shown as plain text, cleaned and fenced before it reaches a model.
 */
export function checkOutputText(
  name: string,
  output: { title?: string | null; summary?: string | null; text?: string | null } | null | undefined,
  log?: string | null,
): string | null {
  const parts: string[] = [];
  const title = output?.title?.trim();
  if (title && title !== name.trim()) parts.push(head(title, 300));
  const summary = output?.summary?.trim();
  if (summary) parts.push(head(summary, CHECK_SUMMARY_MAX));
  const text = output?.text?.trim();
  if (text) parts.push(logTail(text, CHECK_LOG_TAIL_MAX / 2));
  if (log?.trim()) parts.push(`Log (last lines):\n${logTail(log)}`);
  const all = parts.join("\n\n");
  return all ? head(all, TIMELINE_TEXT_MAX - 10) : null;
}

/** The GitHub App whose check runs are GitHub Actions jobs (their log is read by the jobs API). */
export const ACTIONS_APP_SLUG = "github-actions";

/**
 * The job id of a check run GitHub Actions reported (null for any other app): the job's number in
 * its `details_url` (`…/actions/runs/{run}/job/{job}`), else the check run's id, which GitHub
 * gives the job as well.
 */
export function actionsJobId(run: {
  id: number;
  app?: { slug?: string | null } | null;
  details_url?: string | null;
}): number | null {
  if (run.app?.slug !== ACTIONS_APP_SLUG) return null;
  const m = /\/actions\/runs\/\d+\/job\/(\d{1,15})(?:[/?#]|$)/.exec(run.details_url ?? "");
  return m?.[1] ? Number(m[1]) : run.id;
}
