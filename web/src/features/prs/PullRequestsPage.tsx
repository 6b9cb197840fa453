import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { AlertTriangle, CheckCircle2, ExternalLink, GitMerge, RefreshCw } from "lucide-react";
import { toast } from "sonner";
import { api } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import { pullRequestsQuery } from "../../api/prs.queries";
import { Badge, Button, Card, EmptyState, PageHeader, Spinner, buttonClass, type Tone } from "../../ui/ui";
import { Tabs } from "../../ui/Tabs";

type Tab = "open" | "closed" | "all";
const EMPTY: Record<Tab, string> = { open: "No open pull requests", closed: "No closed pull requests", all: "No pull requests yet" };
const TONE: Record<string, Tone> = { open: "green", closed: "red", merged: "purple" };

export function PullRequestsPage() {
  const qc = useQueryClient();
  const q = useQuery(pullRequestsQuery());
  const [tab, setTab] = useState<Tab>("open");
  const sync = useMutation({
    mutationFn: () => unwrap(api.prs.sync.$post()),
    onSuccess: () => void qc.invalidateQueries({ queryKey: pullRequestsQuery().queryKey }),
    onError: (err) => toast.error(errorMessage(err, "Failed to sync pull requests")),
  });
  const all = q.data?.pullRequests ?? [];
  const open = all.filter((p) => p.status === "open");
  const closed = all.filter((p) => p.status !== "open");
  const shown = tab === "open" ? open : tab === "closed" ? closed : all;
  return (
    <>
      <PageHeader title="Pull Requests">
        <Button variant="secondary" onClick={() => sync.mutate()} busy={sync.isPending || q.isFetching}>
          <RefreshCw className="size-4" aria-hidden /> Sync Status
        </Button>
      </PageHeader>
      <Tabs
        idBase="prs"
        label="Pull request status"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "open", label: "Open", count: open.length },
          { id: "closed", label: "Closed", count: closed.length },
          { id: "all", label: "All", count: all.length },
        ]}
      />
      <div id="prs-panel" role="tabpanel" aria-labelledby={`prs-tab-${tab}`}>
        {q.isPending && <Spinner label="Loading pull requests..." />}
        {q.isError && <EmptyState title="Failed to load pull requests">{errorMessage(q.error, "")}</EmptyState>}
        {q.data && shown.length === 0 && <EmptyState title={EMPTY[tab]} />}
        <ul className="space-y-3">
          {shown.map((p) => (
            <li key={p._id}>
              <Card>
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="min-w-0">
                    <h2 className="font-semibold">{p.title}</h2>
                    <p className="text-sm text-slate-600 dark:text-slate-400">
                      #{p.prNumber} · {p.repoFullName} · <code className="text-xs">{p.branchName}</code> → <code className="text-xs">{p.baseBranch}</code>
                    </p>
                  </div>
                  <span className="flex items-center gap-1">
                    <Badge tone={TONE[p.status] ?? "gray"}>{p.status}</Badge>
                    {p.status === "merged" && <GitMerge className="size-4 text-purple-700 dark:text-purple-300" aria-label="Merged" />}
                  </span>
                </div>
                <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">Created {new Date(p.createdAt).toLocaleString()}</p>
                {p.metadata.labels.length > 0 && (
                  <ul className="mt-2 flex flex-wrap gap-1" aria-label="Labels">
                    {p.metadata.labels.map((l) => (
                      <li key={l}><Badge tone="gray">{l}</Badge></li>
                    ))}
                  </ul>
                )}
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
                <a href={p.htmlUrl} target="_blank" rel="noreferrer" className={`${buttonClass("secondary")} mt-3`}>
                  <ExternalLink className="size-4" aria-hidden /> View on GitHub
                </a>
              </Card>
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}
