import type { Db } from "@fixloop/db";
import { currentUsagePeriod, reserveQuota, runs, solutions } from "@fixloop/db";
import {
  ACTIVE_RUN_STATUSES,
  jobIds,
  manualEditsOf,
  refineInputOf,
  type ManualEdit,
  type RefineInput,
} from "@fixloop/contract";
import { solveErrors } from "../solve/solve.errors";
import { type Queues } from "@fixloop/runtime";
import { validationErrors } from "./validations.errors";
import { lockOwnedSolution } from "./validations.repository";
import type { RefineBody } from "./validations.schemas";

/**
 * Starts a refine run: the solve processor reuses the stored analyzing/context/dependencies
 * results and regenerates with every piece of feedback so far (newest last) and the manual edits.
 * A finished refinement rewrites the solution's metadata, so the history is carried run to run
 * in each run's input. A refinement is a model run: it reserves one unit of the plan's quota in
 * the same transaction that creates the run (the same conditional update as generate), charged
 * when it completes and given back when it fails or is cancelled.
 */
export async function refineSolution(db: Db, queues: Queues, userId: string, id: string, body: RefineBody) {
  const feedback = [body.feedback.trim(), body.refinementInstructions?.trim()]
    .filter((s, i, all): s is string => !!s && all.indexOf(s) === i)
    .join("\n\n");
  const result = await db.transaction().execute(async (trx) => {
    const { solution } = await lockOwnedSolution(trx, userId, id);
    if (solution.status !== "pending") throw validationErrors.notPending(solution.status);
    const previous = await trx
      .selectFrom("solve_runs")
      .select("input")
      .where("solution_id", "=", id)
      .where("kind", "=", "refine")
      .orderBy("created_at", "desc")
      .limit(1)
      .executeTakeFirst();
    const before = refineInputOf(previous?.input);
    const key = (e: ManualEdit) => `${e.filename}@${e.revision ?? ""}`;
    const edits = new Map(
      [...before.manualEdits, ...manualEditsOf(solution.metadata?.manualEdits)].map((e) => [key(e), e]),
    );
    const input: RefineInput = {
      feedback: [...before.feedback, feedback],
      manualEdits: [...edits.values()],
      fromRevision: solution.revision,
    };
    await solutions.keepCurrentRevision(trx, solution);
    // aiModel holds the model's display name; the run needs its id, kept on the original run.
    const original = solution.run_id
      ? await trx.selectFrom("solve_runs").select("model_id").where("id", "=", solution.run_id).executeTakeFirst()
      : undefined;

    const active = await trx
      .selectFrom("solve_runs")
      .select("id")
      .where("issue_id", "=", solution.issue_id)
      .where("status", "in", ACTIVE_RUN_STATUSES)
      .executeTakeFirst();
    if (active) throw validationErrors.runOpen();
    const period = await currentUsagePeriod(trx, userId);
    const reserved = await reserveQuota(trx, userId, period.plan, { periodStart: period.periodStart });
    if (!reserved) throw solveErrors.usageLimit();

    const runId = await runs
      .create(trx, {
        user_id: userId,
        issue_id: solution.issue_id,
        quotaPeriodStart: reserved.periodStart,
        kind: "refine",
        solution_id: id,
        model_id: original?.model_id ?? solution.ai_model,
        input,
      })
      .catch((err: { code?: string }) => {
        if (err.code === "23505") throw validationErrors.runOpen();
        throw err;
      });
    // The run counts the refinement when it finishes; this is the number it will get.
    return { runId, refinementCount: solution.refinement_count + 1 };
  });
  await queues.solve.add("solve", { runId: result.runId }, { jobId: jobIds.solve(result.runId) });
  return result;
}
