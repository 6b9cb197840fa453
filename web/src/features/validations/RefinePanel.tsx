import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { toast } from "sonner";
import { api } from "../../api/client";
import { errorMessage, unwrap } from "../../api/errors";
import type { Run } from "../../api/runs.queries";
import { Button, Card } from "../../ui/ui";
import { useLiveRun } from "../solve/run-events";
import { StepsPanel } from "../solve/StepsPanel";

/** Sends feedback, then follows the refinement run live until its new solution is ready. */
export function RefinePanel({ solutionId }: { solutionId: string }) {
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [feedback, setFeedback] = useState("");
  const [pending, setPending] = useState<{ runId: string; count: number } | null>(null);
  const refine = useMutation({
    mutationFn: () =>
      unwrap(
        api.validations[":id"].refine.$post({
          param: { id: solutionId },
          json: { feedback, refinementInstructions: feedback },
        }),
      ),
    onSuccess: (body) => setPending({ runId: body.runId, count: body.refinementCount }),
    onError: (err) => toast.error(errorMessage(err, "Refinement failed")),
  });
  const run = useLiveRun(pending?.runId, (r: Run) => {
    void qc.invalidateQueries({ queryKey: ["validations"] });
    if (r.status === "completed" && r.solutionId) {
      toast.success(`Solution refined! (Refinement #${pending?.count ?? ""})`);
      setPending(null);
      setFeedback("");
      void navigate({ to: "/validations/$solutionId", params: { solutionId: r.solutionId } });
    } else if (r.status === "failed") {
      toast.error(r.error?.message ?? "Refinement failed");
      setPending(null);
    } else setPending(null);
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
        <Button type="submit" className="mt-2" busy={refine.isPending || !!pending} disabled={!feedback.trim()}>
          Request Refinement
        </Button>
      </form>
      {pending && run.data && (
        <div className="mt-4">
          <StepsPanel run={run.data} />
        </div>
      )}
    </Card>
  );
}
