import { solutions, type Db, type FileChange } from "@fixloop/db";
import { assessChange } from "@fixloop/worker/contract";
import { validationErrors } from "./validations.errors";
import { ensureRevisionRecorded, findOwnedSolution } from "./validations.repository";
import type { ModifyBody } from "./validations.schemas";

const MANUAL = "Manual modification";

/**
 * Applies hand edits as a new revision. Every edit must start from the current contents, so a
 * concurrent edit or refinement makes the whole request a 409 and nothing is written.
 */
export async function modifySolution(db: Db, userId: string, id: string, body: ModifyBody): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // Lock the row so two concurrent edits cannot both pass the staleness check.
    await trx
      .selectFrom("solutions")
      .select("id")
      .where("id", "=", id)
      .where("user_id", "=", userId)
      .forUpdate()
      .execute();
    const { solution } = await findOwnedSolution(trx, userId, id);
    if (solution.status !== "pending") throw validationErrors.notPending(solution.status);

    const files: FileChange[] = (solution.files_changed as FileChange[]).map((f) => ({ ...f }));
    const reasons: string[] = [];
    const edits: { filename: string; reason: string }[] = [];
    for (const m of body.modifications) {
      const file = files.find((f) => f.filename === m.filename);
      if (!file) throw validationErrors.unknownFile(m.filename);
      if (file.content !== m.originalContent) throw validationErrors.stale(m.filename);
      if (file.action === "delete") throw validationErrors.unknownFile(m.filename);
      file.content = m.modifiedContent;
      const reason = m.reason?.trim() || body.comments?.trim() || MANUAL;
      reasons.push(reason);
      edits.push({ filename: m.filename, reason });
    }

    await ensureRevisionRecorded(trx, solution);
    // The same deterministic checks as the validating step, on the edited contents.
    const check = assessChange({ files, existingPaths: null });
    const revision = solution.revision + 1;
    const at = new Date().toISOString();
    await solutions.recordManualEdit(trx, solution, {
      filesChanged: files,
      reason: [...new Set(reasons)].join("; "),
      metadata: {
        ...solution.metadata,
        validation: check.validation,
        riskScore: check.riskScore,
        testSuggestions: check.testSuggestions,
        advancedValidation: check.advancedValidation,
        blocked: check.blocked,
        manualEdits: [...(solution.metadata.manualEdits ?? []), ...edits.map((e) => ({ ...e, revision, at }))],
      },
    });
  });
}
