import { sql } from "kysely";
import type { Db, FileChange } from "@fixloop/db";
import { chargeRunQuota } from "@fixloop/db";
import type { AnalyzingOutput, ContextOutput, GeneratingOutput, ValidatingOutput } from "../contract";

export interface FinalizeInput {
  runId: string;
  analyzing: AnalyzingOutput;
  context: ContextOutput;
  generating: GeneratingOutput;
  validating: ValidatingOutput;
  feedback?: string;
}

function metadata(i: FinalizeInput, refinementCount: number) {
  const v = i.validating;
  return {
    repository: `${i.context.owner}/${i.context.repo}`,
    classification: i.analyzing.classification,
    validation: v.validation,
    riskScore: v.riskScore,
    testSuggestions: v.testSuggestions,
    refinementCount,
    advancedValidation: v.advancedValidation,
    blocked: v.blocked,
    model: (i.validating.generating ?? i.generating).model,
    baseCommitSha: i.context.commitSha,
    defaultBranch: i.context.defaultBranch,
    ...(v.tests ? { tests: v.tests } : {}),
  };
}

/**
 * Stores the outcome of a finished run exactly once: a new solution (solve) or a new revision
 * of the existing one (refine), the run completed, its quota charged, the issue solved.
 * Returns the solution id (also when an earlier attempt already finished the run).
 */
export async function finalizeRun(db: Db, i: FinalizeInput): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const run = await trx
      .selectFrom("solve_runs")
      .selectAll()
      .where("id", "=", i.runId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (run.status === "completed" && run.solution_id) return run.solution_id;
    if (run.status !== "running") throw new Error(`run ${run.id} is ${run.status}`);
    // The tests' repair round may have replaced the first generation; confidence is weighed by the test evidence.
    const g = {
      ...(i.validating.generating ?? i.generating),
      confidence: i.validating.confidence ?? (i.validating.generating ?? i.generating).confidence,
    };
    const files = JSON.stringify(g.filesChanged satisfies FileChange[]);
    let solutionId: string;
    if (run.kind === "refine" && run.solution_id) {
      const prev = await trx
        .selectFrom("solutions")
        .select(["refinement_count", "revision"])
        .where("id", "=", run.solution_id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const count = prev.refinement_count + 1;
      const s = await trx
        .updateTable("solutions")
        .set({
          analysis: g.analysis,
          proposed_solution: g.proposedSolution,
          ai_model: g.model.name,
          confidence: g.confidence,
          files_changed: files,
          metadata: JSON.stringify(metadata(i, count)),
          refinement_count: count,
          revision: sql`revision + 1`,
          updated_at: new Date(),
        })
        .where("id", "=", run.solution_id)
        .returning(["id", "revision"])
        .executeTakeFirstOrThrow();
      solutionId = s.id;
      await trx
        .insertInto("solution_revisions")
        .values({
          solution_id: s.id,
          revision: s.revision,
          kind: "refinement",
          files_changed: files,
          analysis: g.analysis,
          proposed_solution: g.proposedSolution,
          feedback: i.feedback ?? null,
          run_id: run.id,
        })
        .execute();
    } else {
      const s = await trx
        .insertInto("solutions")
        .values({
          user_id: run.user_id,
          issue_id: run.issue_id,
          run_id: run.id,
          analysis: g.analysis,
          proposed_solution: g.proposedSolution,
          ai_model: g.model.name,
          confidence: g.confidence,
          files_changed: files,
          metadata: JSON.stringify(metadata(i, 0)),
          base_commit_sha: i.context.commitSha,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      solutionId = s.id;
      await trx
        .insertInto("solution_revisions")
        .values({
          solution_id: s.id,
          revision: 1,
          kind: "generated",
          files_changed: files,
          analysis: g.analysis,
          proposed_solution: g.proposedSolution,
          run_id: run.id,
        })
        .execute();
      await trx
        .updateTable("issues")
        .set({ status: "solved", updated_at: new Date() })
        .where("id", "=", run.issue_id)
        .where("status", "in", ["analyzing", "open", "pending", "failed"])
        .execute();
    }
    await trx
      .updateTable("solve_runs")
      .set({ status: "completed", solution_id: solutionId, finished_at: new Date() })
      .where("id", "=", run.id)
      .execute();
    await chargeRunQuota(trx, run.id);
    return solutionId;
  });
}
