import { runs, solutions, steps, type Db, type SolveRun } from "@fixloop/db";
import { type FileChange, REUSED_ON_REFINE as REUSED } from "@fixloop/contract";

/**
 * A refine run starts from the solution's original run: its first three step results are copied
 * (marked as reused) so only generation and validation run again. Returns the solution's current
 * changes as the baseline.
 */
export async function copyOriginalSteps(
  db: Db,
  run: SolveRun,
  claim: runs.RunClaim,
): Promise<{ ok: true; baseline: FileChange[] } | { ok: false; message: string }> {
  if (!run.solution_id) return { ok: false, message: "The refinement has no solution to refine" };
  const solution = await solutions.refineSource(db, run.solution_id);
  if (!solution?.runId)
    return { ok: false, message: "The solution being refined no longer exists or has no original run" };
  const stored = await steps.load(db, solution.runId, REUSED);
  const original = [...stored.values()].filter((s) => s.status === "completed");
  if (original.length !== REUSED.length)
    return { ok: false, message: "The original run's analysis is incomplete; start a new solve instead" };
  await steps.copyCompleted(
    db,
    claim,
    original.map((s) => ({ ...s, detail: { ...s.detail, info: ["Reused from the original run", ...s.detail.info] } })),
  );
  return { ok: true, baseline: solution.filesChanged };
}
