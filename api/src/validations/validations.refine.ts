import type { Db } from "@fixloop/db";
import { jobIds, type Queues } from "@fixloop/worker/contract";
import { validationErrors } from "./validations.errors";
import { ensureRevisionRecorded, findOwnedSolution } from "./validations.repository";
import type { RefineBody } from "./validations.schemas";

/**
 * Starts a refine run: the solve processor reuses the stored analyzing/context/dependencies
 * results and regenerates with every piece of feedback so far (newest last) and the manual edits.
 * A refinement is part of the solution it refines, so it charges no quota.
 */
export async function refineSolution(db: Db, queues: Queues, userId: string, id: string, body: RefineBody) {
  const feedback = [body.feedback.trim(), body.refinementInstructions?.trim()]
    .filter((s, i, all): s is string => !!s && all.indexOf(s) === i)
    .join("\n\n");
  const result = await db.transaction().execute(async (trx) => {
    await trx.selectFrom("solutions").select("id").where("id", "=", id).where("user_id", "=", userId).forUpdate().execute();
    const { solution } = await findOwnedSolution(trx, userId, id);
    if (solution.status !== "pending") throw validationErrors.notPending(solution.status);
    const meta = solution.metadata ?? {};
    const history = [...(Array.isArray(meta.feedbackHistory) ? (meta.feedbackHistory as string[]) : []), feedback];
    const manualEdits = Array.isArray(meta.manualEdits) ? meta.manualEdits : [];
    await ensureRevisionRecorded(trx, solution);

    const run = await trx
      .insertInto("solve_runs")
      .values({
        user_id: userId,
        issue_id: solution.issue_id,
        kind: "refine",
        solution_id: id,
        model_id: solution.ai_model,
        input: JSON.stringify({ feedback: history, manualEdits, fromRevision: solution.revision }),
      })
      .returning("id")
      .executeTakeFirst()
      .catch((err: { code?: string }) => {
        if (err.code === "23505") throw validationErrors.runOpen();
        throw err;
      });
    if (!run) throw validationErrors.runOpen();
    const updated = await trx
      .updateTable("solutions")
      .set((eb) => ({
        refinement_count: eb("refinement_count", "+", 1),
        metadata: JSON.stringify({ ...meta, feedbackHistory: history }),
      }))
      .where("id", "=", id)
      .returning("refinement_count")
      .executeTakeFirstOrThrow();
    return { runId: run.id, refinementCount: updated.refinement_count };
  });
  await queues.solve.add("solve", { runId: result.runId }, { jobId: jobIds.solve(result.runId) });
  return result;
}
