import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { toast } from "sonner";
import { api } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import { runQuery, type Run } from "../../api/runs.queries";
import { Button, Card } from "../../ui/ui";
import { useLiveRun } from "../solve/run-events";
import { StepsPanel } from "../solve/StepsPanel";

/**
 * Sends feedback, then follows the refinement run live until its new solution is ready. A
 * refinement already running when the page opens (`activeRunId`, e.g. after a reload) is followed too.
 */
export function RefinePanel({
  solutionId,
  activeRunId,
  refinementCount,
}: {
  solutionId: string;
  activeRunId: string | null;
  refinementCount: number;
}) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [feedback, setFeedback] = useState("");
  const [started, setStarted] = useState<{ runId: string; count: number } | null>(null);
  const pending = started ?? (activeRunId ? { runId: activeRunId, count: refinementCount + 1 } : null);
  const refine = useMutation({
    mutationFn: () =>
      unwrap(
        api.validations[":id"].refine.$post({
          param: { id: solutionId },
          json: { feedback, refinementInstructions: feedback },
        }),
      ),
    onSuccess: (body) => {
      setStarted({ runId: body.runId, count: body.refinementCount });
      cancel.reset();
      // The page holds the files and the decision while it runs.
      void qc.invalidateQueries({ queryKey: ["validations", solutionId] });
    },
    onError: (err) => toast.error(errorMessage(err, "Refinement failed")),
  });
  const cancel = useMutation({
    mutationFn: (id: string) => unwrap(api.runs[":id"].cancel.$post({ param: { id } })),
    onSuccess: (_d, id) => void qc.invalidateQueries({ queryKey: runQuery(id).queryKey }),
    onError: (err) => toast.error(errorMessage(err, "Failed to cancel the refinement")),
  });
  const run = useLiveRun(pending?.runId, (r: Run) => {
    void qc.invalidateQueries({ queryKey: ["validations"] });
    if (r.status === "completed" && r.solutionId) {
      toast.success(`Solution refined! (Refinement #${pending?.count ?? ""})`);
      setStarted(null);
      setFeedback("");
      void navigate({ to: "/validations/$solutionId", params: { solutionId: r.solutionId } });
    } else if (r.status === "failed") {
      toast.error(r.error?.message ?? "Refinement failed");
      setStarted(null);
    } else setStarted(null);
  });
  return (
    <Card>
      <h2 className="font-semibold">Request Refinement</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (feedback.trim()) refine.mutate();
        }}
      >
        <label htmlFor="refine-feedback" className="mt-2 block text-sm">
          What should the AI change?
        </label>
        <textarea
          id="refine-feedback"
          value={feedback}
          onChange={(e) => setFeedback(e.target.value)}
          rows={3}
          disabled={!!pending}
          className="mt-1 w-full rounded-lg border border-slate-300 bg-white p-2 text-sm dark:border-slate-600 dark:bg-slate-900"
        />
        <div className="mt-2 flex flex-wrap gap-2">
          <Button type="submit" busy={refine.isPending || !!pending} disabled={!feedback.trim()}>
            Request Refinement
          </Button>
          {pending && (
            <Button
              variant="secondary"
              onClick={() => cancel.mutate(pending.runId)}
              busy={cancel.isPending}
              disabled={cancel.isSuccess}
            >
              Cancel refinement
            </Button>
          )}
        </div>
      </form>
      {pending && run.data && (
        <div className="mt-4">
          <StepsPanel run={run.data} cancelling={cancel.isSuccess} />
        </div>
      )}
    </Card>
  );
}
