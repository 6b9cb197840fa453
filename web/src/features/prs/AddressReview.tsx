import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { toast } from "sonner";
import { api } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import type { Run } from "../../api/runs.queries";
import type { PullRequest } from "../../api/types";
import { Badge, buttonClass } from "../../ui/ui";
import { useLiveRun } from "../solve/run-events";
import { StepsPanel } from "../solve/StepsPanel";

export type AddressSelection = { all: true } | { commentIds: string[] };

/**
 * Starts "Address review" (chosen comments or all open ones, with the failing checks) and follows
 * the refinement live, also one started before the page was (re)opened: the pull request says
 * which runs. When one started here is ready the solution's page opens, where the new revision's
 * tests and evidence are reviewed and pushed to the pull request.
 */
export function useAddressReview(p: Pick<PullRequest, "_id" | "address">) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [runId, setRunId] = useState<string | undefined>();
  const [ended, setEnded] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const resumed = p.address.runId && !ended.includes(p.address.runId) ? p.address.runId : undefined;
  const following = runId ?? resumed;
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ["prs"] });
    void qc.invalidateQueries({ queryKey: ["validations"] });
  };
  const start = useMutation({
    mutationFn: (selection: AddressSelection) =>
      unwrap(api.prs[":id"]["address-review"].$post({ param: { id: p._id }, json: selection })),
    onMutate: () => setError(null),
    onSuccess: (body) => {
      setRunId(body.runId);
      const what = [
        body.comments > 0 ? `${body.comments} review comment${body.comments === 1 ? "" : "s"}` : "",
        body.checks > 0 ? `${body.checks} failing check${body.checks === 1 ? "" : "s"}` : "",
      ].filter(Boolean);
      toast.success(`Addressing ${what.join(" and ") || "the review"}`);
      refresh();
    },
    onError: (err) => setError(errorMessage(err, "Could not start addressing the review")),
  });
  const run = useLiveRun(following, (r: Run) => {
    const startedHere = r.id === runId;
    setEnded((e) => [...e, r.id]);
    setRunId(undefined);
    refresh();
    if (r.status !== "completed" || !r.solutionId) setError(r.error?.message ?? "The refinement did not finish");
    else if (startedHere) {
      toast.success("The review is addressed: check the new revision, then push it");
      void navigate({ to: "/validations/$solutionId", params: { solutionId: r.solutionId } });
    }
  });
  return {
    start,
    running: !!following || start.isPending,
    run: following ? run.data : undefined,
    error,
    pendingRevision: following ? null : p.address.pendingRevision,
  };
}

export function AddressProgress({
  state,
  solutionId,
}: {
  state: ReturnType<typeof useAddressReview>;
  solutionId: string;
}) {
  return (
    <>
      {state.error && (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {state.error}
        </p>
      )}
      {state.running && (
        <div className="mt-3" aria-label="Addressing the review">
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <Badge tone="yellow">Addressing the review</Badge>
            {state.run ? `The refinement is ${state.run.status}` : "Starting the refinement..."}
          </p>
          {state.run && <StepsPanel run={state.run} />}
        </div>
      )}
      {state.pendingRevision !== null && (
        <p className="mt-3 flex flex-wrap items-center gap-2 text-sm" aria-label="Revision waiting for approval">
          <Badge tone="blue">Revision {state.pendingRevision} waits for your approval</Badge>
          <Link to="/validations/$solutionId" params={{ solutionId }} className={buttonClass("secondary")}>
            Review and push revision {state.pendingRevision}
          </Link>
        </p>
      )}
    </>
  );
}
