import { jobIds } from "@fixloop/contract";
import type { Queues } from "@fixloop/runtime";
import { eventually } from "@fixloop/testkit";

/**
 * Waits until no worker can do anything more for run `runId`: its solve job has ended (the
 * processor returned or threw) or is gone from the queue (a queued run's cancel removes it). A test
 * that then finds nothing more happened (no model request, no solution) shows it, with no sleep
 * guessing how long a run that kept going would take to show itself.
 */
export async function solveJobDone(queues: Pick<Queues, "solve">, runId: string, timeout = 15_000): Promise<void> {
  await eventually(
    async () => {
      const job = await queues.solve.getJob(jobIds.solve(runId));
      return !job || !!job.finishedOn;
    },
    { what: `the solve job of run ${runId} to end`, timeout },
  );
}
