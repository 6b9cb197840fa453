import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { toast } from "sonner";
import { api } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import type { Run } from "../../api/runs.queries";
import { useLiveRun } from "../solve/run-events";
import { StepsPanel } from "../solve/StepsPanel";

export type AddressSelection = { all: true } | { commentIds: string[] };

/**
 * Starts "Address review" (chosen comments or all open ones) and follows the refinement live;
 * when it is ready the solution's page opens, where the new revision's tests and evidence are
 * reviewed and pushed to the pull request.
 */
export function useAddressReview(pullRequestId: string) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [runId, setRunId] = useState<string | undefined>();
  const [error, setError] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: (selection: AddressSelection) =>
      unwrap(api.prs[":id"]["address-review"].$post({ param: { id: pullRequestId }, json: selection })),
    onMutate: () => setError(null),
    onSuccess: (body) => {
      setRunId(body.runId);
      const what = [
        body.comments > 0 ? `${body.comments} review comment${body.comments === 1 ? "" : "s"}` : "",
        body.checks > 0 ? `${body.checks} failing check${body.checks === 1 ? "" : "s"}` : "",
      ].filter(Boolean);
      toast.success(`Addressing ${what.join(" and ") || "the review"}`);
      void qc.invalidateQueries({ queryKey: ["prs", pullRequestId, "timeline"] });
    },
    onError: (err) => setError(errorMessage(err, "Could not start addressing the review")),
  });
  const run = useLiveRun(runId, (r: Run) => {
    void qc.invalidateQueries({ queryKey: ["validations"] });
    setRunId(undefined);
    if (r.status === "completed" && r.solutionId) {
      toast.success("The review is addressed: check the new revision, then push it");
      void navigate({ to: "/validations/$solutionId", params: { solutionId: r.solutionId } });
    } else setError(r.error?.message ?? "The refinement did not finish");
  });
  return { start, running: !!runId || start.isPending, run: runId ? run.data : undefined, error };
}

export function AddressProgress({ state }: { state: ReturnType<typeof useAddressReview> }) {
  return (
    <>
      {state.error && (
        <p role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
          {state.error}
        </p>
      )}
      {state.run && (
        <div className="mt-3" aria-label="Addressing the review">
          <StepsPanel run={state.run} />
        </div>
      )}
    </>
  );
}
