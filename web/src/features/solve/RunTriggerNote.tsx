import { RotateCcw, Tag } from "lucide-react";
import { RESUMED_AFTER_RESTART, RETRIED_AFTER_FAILURE, STEP_LABELS } from "@fixloop/contract";
import type { Run } from "../../api/runs.queries";

/** Says a run was started by the repository's solve label, not by someone pressing Solve. */
export function RunTriggerNote({ run }: { run: Run }) {
  if (run.trigger !== "label") return null;
  return (
    <p className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300" data-testid="run-trigger">
      <Tag className="size-4 shrink-0" aria-hidden />
      <span>
        Started by the <span className="font-mono font-medium">{run.triggerLabel ?? "solve"}</span> label on GitHub
        {run.triggerSender && (
          <>
            {" "}
            added by <span className="font-mono font-medium">{run.triggerSender}</span>
          </>
        )}
        ; the pull request still waits for your approval.
      </span>
    </p>
  );
}

/**
 * Says which steps started again after a worker stopped mid-step (or a failed attempt was retried).
 * Each step's own detail says it too, but the steps are hidden once the run has completed.
 */
export function RunResumedNote({ run }: { run: Run }) {
  const again = run.steps.flatMap((s) =>
    s.detail.info
      .filter((line) => line === RESUMED_AFTER_RESTART || line === RETRIED_AFTER_FAILURE)
      .map((line) => `${line}: ${STEP_LABELS[s.id]}`),
  );
  if (again.length === 0) return null;
  return (
    <p className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300" data-testid="run-resumed">
      <RotateCcw className="size-4 shrink-0" aria-hidden />
      <span>{again.join("; ")}.</span>
    </p>
  );
}
