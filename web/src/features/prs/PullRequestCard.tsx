import { useQuery } from "@tanstack/react-query";
import { AlertTriangle, CheckCircle2, ExternalLink, GitMerge, MessageSquareReply } from "lucide-react";
import { pullRequestTimelineQuery } from "../../api/prs.queries";
import type { PullRequest } from "../../api/types";
import { Badge, Button, Card, CardHeader, LabelList, buttonClass, type Tone } from "../../ui/ui";
import { InlineMarkdown } from "../../ui/Markdown";
import { ActionNotice } from "../issues/ActionNotice";
import { AddressProgress, useAddressReview } from "./AddressReview";
import { failingChecks, isOpenReviewComment, PullRequestTimeline } from "./PullRequestTimeline";

const TONE: Record<string, Tone> = { open: "green", closed: "red", merged: "purple" };

/**
 * One of Fixloop's pull requests: its state, its timeline, and "Address review" while it is open
 * (or why it is not offered).
 */
export function PullRequestCard({ p }: { p: PullRequest }) {
  const timeline = useQuery(pullRequestTimelineQuery(p._id));
  const address = useAddressReview(p);
  const open = p.status === "open";
  // A refinement the API would refuse (the issue's repository left the user's list) is not offered.
  const addressable = open && p.actions.address.allowed;
  // While a refinement runs (wherever it was started), or its revision waits for approval, nothing
  // more is offered: the first would be refused, the second is reviewed and pushed first.
  const offered = addressable && !address.running && address.pendingRevision === null;
  const entries = timeline.data?.timeline ?? [];
  const waiting = entries.filter(isOpenReviewComment).length;
  const failing = failingChecks(entries).length;
  return (
    <Card>
      <CardHeader
        title={<InlineMarkdown>{p.title}</InlineMarkdown>}
        meta={
          <>
            #{p.prNumber} · {p.repoFullName} · <code className="text-xs break-all">{p.branchName}</code> →{" "}
            <code className="text-xs">{p.baseBranch}</code>
          </>
        }
        badges={
          <>
            <Badge tone={TONE[p.status] ?? "gray"}>{p.status}</Badge>
            {open && p.metadata.draft && <Badge tone="gray">draft</Badge>}
            {open && !p.metadata.draft && p.metadata.draftRefused && (
              <Badge tone="yellow">not ready: drafts unsupported here</Badge>
            )}
            {p.status === "merged" && (
              <GitMerge className="size-4 text-purple-700 dark:text-purple-300" aria-label="Merged" />
            )}
          </>
        }
      />
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        Created {new Date(p.createdAt).toLocaleString()}
      </p>
      <LabelList labels={p.metadata.labels} />
      {p.metadata.hasBreakingChanges && (
        <p className="mt-2 flex items-center gap-1 text-sm text-amber-800 dark:text-amber-300">
          <AlertTriangle className="size-4" aria-hidden /> Contains Breaking Changes
        </p>
      )}
      {p.metadata.generatedWithGuidelines && (
        <p className="mt-2 flex items-center gap-1 text-sm text-green-700 dark:text-green-400">
          <CheckCircle2 className="size-4" aria-hidden /> Follows repository guidelines
        </p>
      )}
      <PullRequestTimeline
        id={p._id}
        onAddress={offered ? (id) => address.start.mutate({ commentIds: [id] }) : undefined}
        busy={address.running}
        pendingRevision={address.pendingRevision}
      />
      {open && <ActionNotice actions={p.actions} of={["address"]} />}
      <AddressProgress state={address} solutionId={p.solutionId} />
      <div className="mt-3 flex flex-wrap gap-2">
        {offered && (waiting > 0 || failing > 0) && (
          <Button onClick={() => address.start.mutate({ all: true })} busy={address.running}>
            <MessageSquareReply className="size-4" aria-hidden /> {addressLabel(waiting, failing)}
          </Button>
        )}
        <a href={p.htmlUrl} target="_blank" rel="noreferrer" className={buttonClass("secondary")}>
          <ExternalLink className="size-4" aria-hidden /> View on GitHub
        </a>
      </div>
    </Card>
  );
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** "Address all": the open review comments and the failing checks (whose output goes with them). */
function addressLabel(comments: number, checks: number) {
  if (checks === 0) return `Address all open review comments (${comments})`;
  if (comments === 0) return `Address the failing ${checks === 1 ? "check" : `checks (${checks})`}`;
  return `Address ${plural(comments, "review comment")} and ${plural(checks, "failing check")}`;
}
