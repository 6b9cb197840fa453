import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { ShieldAlert, Trash2 } from "lucide-react";
import { toast } from "sonner";
import { confidenceBand } from "@fixloop/contract";
import { api } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import { pendingValidationsQuery } from "../../api/validations.queries";
import { Button, Card, EmptyState, PageHeader, Spinner, buttonClass } from "../../ui/ui";
import { CONFIDENCE_TEXT } from "../solve/SolutionResult";
import { TestsBadge } from "./tests-status";
import { InlineMarkdown } from "../../ui/Markdown";
import { PendingCardFacts } from "./PendingCardFacts";

export function ValidationsPage() {
  const qc = useQueryClient();
  const q = useQuery(pendingValidationsQuery());
  const del = useMutation({
    mutationFn: (id: string) => unwrap(api.validations[":id"].$delete({ param: { id } })),
    onSuccess: () => {
      toast.success("Solution deleted successfully");
      void qc.invalidateQueries({ queryKey: ["validations"] });
      void qc.invalidateQueries({ queryKey: ["issues"] });
    },
    onError: () => toast.error("Failed to delete solution"),
  });
  const solutions = q.data?.solutions ?? [];
  return (
    <>
      <PageHeader title="Pending Validations" />
      {solutions.length > 0 && (
        <div
          role="status"
          className="mb-4 flex items-start gap-3 rounded-xl border border-violet-300 bg-violet-50 p-4 dark:border-violet-800 dark:bg-violet-950/40"
        >
          <ShieldAlert className="size-5 shrink-0 text-violet-700 dark:text-violet-300" aria-hidden />
          <div>
            <p className="font-semibold">Human Validation Required</p>
            <p className="text-sm text-slate-700 dark:text-slate-300">
              The AI drafts, you decide: review each solution before a pull request is opened.
            </p>
          </div>
        </div>
      )}
      {q.isPending && <Spinner label="Loading validations..." />}
      {q.isError && <EmptyState title="Failed to load validations">{errorMessage(q.error, "")}</EmptyState>}
      {q.data && solutions.length === 0 && (
        <EmptyState title="No pending validations">
          <Link to="/issues" className={buttonClass("primary")}>
            Go to Issues
          </Link>
        </EmptyState>
      )}
      <ul className="space-y-3">
        {solutions.map((s) => (
          <li key={s._id}>
            <Card>
              <h2 className="font-semibold">
                <InlineMarkdown>{s.issueId.title}</InlineMarkdown>
              </h2>
              <PendingCardFacts solution={s} all={solutions} />
              <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
                {s.analysis.slice(0, 200)}
                {s.analysis.length > 200 ? "…" : ""}
              </p>
              <p className="mt-2 flex flex-wrap gap-x-3 text-sm text-slate-600 dark:text-slate-400">
                <span>
                  {s.filesChanged.length} {s.filesChanged.length === 1 ? "file" : "files"}
                </span>
                <span>{s.aiModel}</span>
                <span className={`font-semibold ${CONFIDENCE_TEXT[confidenceBand(s.confidence)]}`}>
                  {s.confidence}% confidence
                </span>
                <TestsBadge tests={s.tests} />
              </p>
              <div className="mt-3 flex gap-2">
                <Link to="/validations/$solutionId" params={{ solutionId: s._id }} className={buttonClass("primary")}>
                  Review &amp; Validate
                </Link>
                <Button
                  variant="secondary"
                  aria-label={`Delete solution for ${s.issueId.title}`}
                  busy={del.isPending && del.variables === s._id}
                  onClick={() => window.confirm("Are you sure you want to delete this solution?") && del.mutate(s._id)}
                >
                  <Trash2 className="size-4" aria-hidden />
                </Button>
              </div>
            </Card>
          </li>
        ))}
      </ul>
    </>
  );
}
