import { useQuery } from "@tanstack/react-query";
import { CheckCircle2, GitCommit, GitMerge, GitPullRequest, MessageSquare, XCircle } from "lucide-react";
import type { ReactNode } from "react";
import { pullRequestTimelineQuery } from "../../api/prs.queries";
import type { PullRequestTimelineEntry } from "../../api/types";
import { Badge, Button, type Tone } from "../../ui/ui";
import { Markdown } from "../../ui/Markdown";
import { CheckOutput } from "./CheckOutput";
import { isFailingCheckState } from "@fixloop/contract";

type Entry = PullRequestTimelineEntry;

/** A reviewer's line comment that Fixloop has not answered with a pushed commit yet (replies are not threads). */
export const isOpenReviewComment = (e: Entry) => e.kind === "review_comment" && !e.inReplyTo && !e.addressedCommit;

/** The checks whose latest result (by name) is a failure: "Address" sends their output to the model. */
export function failingChecks(entries: Entry[]): Entry[] {
  const latest = new Map<string, Entry>();
  for (const e of entries) {
    if (e.kind !== "check") continue;
    const seen = latest.get(e.title ?? "");
    if (!seen || seen.occurredAt <= e.occurredAt) latest.set(e.title ?? "", e);
  }
  return [...latest.values()].filter((e) => isFailingCheckState(e.state));
}

const STATE_TONE: Record<string, Tone> = {
  approved: "green",
  changes_requested: "orange",
  commented: "gray",
  dismissed: "gray",
  success: "green",
  failure: "red",
  timed_out: "red",
  cancelled: "gray",
  action_required: "yellow",
  neutral: "gray",
  skipped: "gray",
};

function headline(e: Entry): ReactNode {
  const who = e.actor ?? "someone";
  switch (e.kind) {
    case "review":
      return (
        <>
          {who} reviewed <Badge tone={STATE_TONE[e.state ?? ""] ?? "gray"}>{(e.state ?? "").replace("_", " ")}</Badge>
        </>
      );
    case "review_comment":
      return (
        <>
          {who} {e.inReplyTo ? "replied" : "commented"} on{" "}
          <code className="text-xs break-all">
            {e.path}
            {e.line != null ? `:${e.line}` : ""}
          </code>
        </>
      );
    case "check":
      return (
        <>
          Check <strong>{e.title}</strong> <Badge tone={STATE_TONE[e.state ?? ""] ?? "gray"}>{e.state}</Badge>
        </>
      );
    case "commit":
      return (
        <>
          {who} pushed <code className="text-xs">{e.sourceId.slice(0, 7)}</code> {e.title}
        </>
      );
    case "merged":
      return <>Merged by {who}</>;
    case "closed":
      return <>Closed by {who} without merging</>;
    case "reopened":
      return <>Reopened by {who}</>;
  }
}

const ICON = {
  review: CheckCircle2,
  review_comment: MessageSquare,
  check: CheckCircle2,
  commit: GitCommit,
  merged: GitMerge,
  closed: XCircle,
  reopened: GitPullRequest,
} as const;

/**
 * A pull request's timeline, oldest first. Reviewers' texts are untrusted: rendered through the
 * same sanitising markdown as issue text (no raw HTML).
 */
export function PullRequestTimeline({
  id,
  onAddress,
  busy = false,
  pendingRevision = null,
}: {
  id: string;
  /** Offered on open review comments of an open pull request. */
  onAddress?: (commentId: string) => void;
  busy?: boolean;
  /** The solution's revision made by addressing the review and not pushed yet. */
  pendingRevision?: number | null;
}) {
  const q = useQuery(pullRequestTimelineQuery(id));
  if (q.isPending) return <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">Loading activity...</p>;
  if (q.isError)
    return <p className="mt-3 text-sm text-red-700 dark:text-red-400">Failed to load this pull request's activity</p>;
  const entries = q.data.timeline;
  if (entries.length === 0)
    return <p className="mt-3 text-sm text-slate-600 dark:text-slate-400">No reviews, comments or checks yet</p>;
  return (
    <ol className="mt-3 space-y-2 border-l border-slate-200 pl-3 dark:border-slate-700" aria-label="Activity">
      {entries.map((e) => {
        const failed = e.kind === "check" && e.state !== "success" && e.state !== "neutral" && e.state !== "skipped";
        const Icon = failed ? XCircle : ICON[e.kind];
        return (
          <li
            key={`${e.kind}-${e.sourceId}`}
            data-kind={e.kind}
            data-reply={e.inReplyTo ? "true" : undefined}
            className={`text-sm ${e.inReplyTo ? "ml-4 border-l border-slate-200 pl-2 dark:border-slate-700" : ""}`}
          >
            <p className="flex flex-wrap items-center gap-1">
              <Icon className="size-4 shrink-0 text-slate-500" aria-hidden />
              {headline(e)}
              <time className="text-xs text-slate-500" dateTime={e.occurredAt}>
                {new Date(e.occurredAt).toLocaleString()}
              </time>
            </p>
            {e.body && e.kind === "check" && <CheckOutput title={e.title} body={e.body} />}
            {e.body && e.kind !== "commit" && e.kind !== "check" && (
              <Markdown className="mt-1 text-sm break-words">{e.body}</Markdown>
            )}
            {e.kind === "review_comment" && !e.inReplyTo && (
              <ReviewCommentState entry={e} onAddress={onAddress} busy={busy} pendingRevision={pendingRevision} />
            )}
          </li>
        );
      })}
    </ol>
  );
}

function ReviewCommentState(p: {
  entry: Entry;
  onAddress?: (id: string) => void;
  busy: boolean;
  pendingRevision: number | null;
}) {
  const e = p.entry;
  if (e.addressedCommit)
    return (
      <p className="mt-1">
        <Badge tone="green">Addressed in {e.addressedCommit.slice(0, 7)}</Badge>
      </p>
    );
  return (
    <p className="mt-1 flex flex-wrap items-center gap-2">
      {e.addressRequestedAt &&
        (p.busy || p.pendingRevision === null ? (
          <Badge tone="yellow">Being addressed</Badge>
        ) : (
          <Badge tone="blue">Addressed in revision {p.pendingRevision}, not pushed yet</Badge>
        ))}
      {p.onAddress && (
        <Button
          variant="secondary"
          className="px-2 py-1 text-xs"
          busy={p.busy}
          onClick={() => p.onAddress?.(e.sourceId)}
          aria-label={`Address the review comment on ${e.path ?? "the pull request"}${e.line != null ? `:${e.line}` : ""}`}
        >
          Address
        </Button>
      )}
    </p>
  );
}
