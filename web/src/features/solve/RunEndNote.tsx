import type { UseMutationResult } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Play } from "lucide-react";
import type { Run } from "../../api/runs.queries";
import { Button } from "../../ui/ui";
import { stoppedReason } from "./run-events";

/**
 * How the page's last run ended, when it did not end with a solution: its failure (with Resume when
 * a spending cap stopped it and the standing allows a resume), a Cancel, or why it was stopped.
 */
export function RunEndNote({
  run: r,
  resume,
}: {
  run: Run;
  /** Offered only when the run may be resumed (the page asks the run's actions). */
  resume: UseMutationResult<unknown, Error, string> | null;
}) {
  const stopped = stoppedReason(r);
  return (
    <>
      {r.status === "failed" && (
        <p role="alert" className="mt-3 text-sm text-red-700 first:mt-0 dark:text-red-400">
          The last run failed: {r.error?.message ?? "Failed to generate solution"}
        </p>
      )}
      {resume && (
        <div className="mt-3 flex flex-wrap items-center gap-3 first:mt-0">
          <Button onClick={() => resume.mutate(r._id)} busy={resume.isPending}>
            <Play className="size-4" aria-hidden /> Resume
          </Button>
          <Link to="/profile-settings" search={{ tab: "usage" }} className="text-sm underline">
            Change caps in Profile → Usage
          </Link>
        </div>
      )}
      {r.status === "cancelled" && !stopped && <p className="mt-3 text-sm first:mt-0">The last run was cancelled.</p>}
      {stopped && (
        <p role="alert" className="mt-3 text-sm text-red-700 first:mt-0 dark:text-red-400" data-testid="run-stopped">
          {stopped}
        </p>
      )}
    </>
  );
}
