import { Tag } from "lucide-react";
import type { Run } from "../../api/runs.queries";

/** Says a run was started by the repository's solve label, not by someone pressing Solve. */
export function RunTriggerNote({ run }: { run: Run }) {
  if (run.trigger !== "label") return null;
  return (
    <p className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300" data-testid="run-trigger">
      <Tag className="size-4 shrink-0" aria-hidden />
      <span>
        Started by the <span className="font-mono font-medium">{run.triggerLabel ?? "solve"}</span> label on GitHub; the
        pull request still waits for your approval.
      </span>
    </p>
  );
}
