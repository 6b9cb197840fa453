import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AlertTriangle, CheckCircle2, ExternalLink, GitMerge, RefreshCw } from "lucide-react";
import { toast } from "sonner";
import { api } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import { pullRequestsQuery } from "../../api/prs.queries";
import { Badge, Button, Card, LabelList, PageHeader, buttonClass, type Tone } from "../../ui/ui";
import { StatusTabsList } from "../../ui/StatusTabsList";
import { InlineMarkdown } from "../../ui/Markdown";
import { PullRequestTimeline } from "./PullRequestTimeline";

const EMPTY = { open: "No open pull requests", closed: "No closed pull requests", all: "No pull requests yet" };
const TONE: Record<string, Tone> = { open: "green", closed: "red", merged: "purple" };

export function PullRequestsPage() {
  const qc = useQueryClient();
  const q = useQuery(pullRequestsQuery());
  const sync = useMutation({
    mutationFn: () => unwrap(api.prs.sync.$post()),
    onSuccess: () => void qc.invalidateQueries({ queryKey: pullRequestsQuery().queryKey }),
    onError: (err) => toast.error(errorMessage(err, "Failed to sync pull requests")),
  });
  return (
    <>
      <PageHeader title="Pull Requests">
        <Button variant="secondary" onClick={() => sync.mutate()} busy={sync.isPending || q.isFetching}>
          <RefreshCw className="size-4" aria-hidden /> Sync Status
        </Button>
      </PageHeader>
      <StatusTabsList
        idBase="prs"
        label="Pull request status"
        items={q.data?.pullRequests}
        isOpen={(p) => p.status === "open"}
        keyOf={(p) => p._id}
        empty={EMPTY}
        query={q}
        loading="Loading pull requests..."
        failed="Failed to load pull requests"
        render={(p) => (
          <Card>
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div className="min-w-0">
                <h2 className="font-semibold">
                  <InlineMarkdown>{p.title}</InlineMarkdown>
                </h2>
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  #{p.prNumber} · {p.repoFullName} · <code className="text-xs">{p.branchName}</code> →{" "}
                  <code className="text-xs">{p.baseBranch}</code>
                </p>
              </div>
              <span className="flex items-center gap-1">
                <Badge tone={TONE[p.status] ?? "gray"}>{p.status}</Badge>
                {p.status === "open" && p.metadata.draft && <Badge tone="gray">draft</Badge>}
                {p.status === "merged" && (
                  <GitMerge className="size-4 text-purple-700 dark:text-purple-300" aria-label="Merged" />
                )}
              </span>
            </div>
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
            <PullRequestTimeline id={p._id} />
            <a href={p.htmlUrl} target="_blank" rel="noreferrer" className={`${buttonClass("secondary")} mt-3`}>
              <ExternalLink className="size-4" aria-hidden /> View on GitHub
            </a>
          </Card>
        )}
      />
    </>
  );
}
