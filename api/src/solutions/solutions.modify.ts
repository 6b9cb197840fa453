import { solutions } from "@fixloop/db";
import { type FileChange, assessChange, jobIds, SolutionTests, solutionReproductionOf } from "@fixloop/contract";
import type { AppDeps } from "../deps";
import { solutionErrors } from "./solutions.errors";
import { findOwnedSolution, lockEditableSolution, type SolutionRow } from "./solutions.owned";
import type { ModifyBody } from "./solutions.schemas";
import { refuseOversized } from "./solutions.revision";
import { checkSyntax } from "./solutions.syntax";

const MANUAL = "Manual modification";

/**
 * Applies hand edits as a new revision. Every edit must start from the current contents, so a
 * concurrent edit or refinement makes the whole request a 409 and nothing is written. The edited
 * files are parsed by a worker first, outside the row lock; a change meanwhile is a 409 too.
 */
export async function modifySolution(deps: AppDeps, userId: string, id: string, body: ModifyBody): Promise<void> {
  const { db } = deps;
  const before = await findOwnedSolution(db, userId, id);
  // An edit the pull-request job would refuse is refused now, in the job's words, before approval.
  const edited = applyModifications(before.solution, body).files;
  refuseOversized(deps.env, edited);
  const syntaxErrors = await checkSyntax(deps, edited);
  const rerun = await db.transaction().execute(async (trx) => {
    // The row lock keeps two concurrent edits from both passing the staleness check.
    const { solution } = await lockEditableSolution(trx, userId, id);
    const { files, reasons, edits } = applyModifications(solution, body);
    if (solution.revision !== before.solution.revision) throw solutionErrors.stale(edits[0]?.filename ?? "");

    await solutions.keepCurrentRevision(trx, solution);
    // The same deterministic checks as the validating step, on the edited contents.
    const check = assessChange({ files, existingPaths: null, syntaxErrors });
    const revision = solution.revision + 1;
    const reproduction = solutionReproductionOf(solution.metadata.reproduction);
    const at = new Date().toISOString();
    await solutions.recordManualEdit(trx, solution, {
      filesChanged: files,
      reason: [...new Set(reasons)].join("; "),
      metadata: {
        ...solution.metadata,
        ...check,
        // The tests ran on the code before this edit: the evidence says so until they run again.
        ...(solution.metadata.tests ? { tests: staleTests(solution.metadata.tests, at, revision) } : {}),
        // Whether the reproduction test passes is unknown for the edited files until the tests run on them.
        ...(reproduction ? { reproduction: { ...reproduction, passesWithSolution: null } } : {}),
        manualEdits: [...(solution.metadata.manualEdits ?? []), ...edits.map((e) => ({ ...e, revision, at }))],
      },
    });
    return solution.metadata.tests ? revision : null;
  });
  // The tests run again on the edited files, as a job; its evidence replaces the stale one unless another edit came first.
  if (rerun !== null)
    await deps.queues.testsRerun.add(
      "tests-rerun",
      { userId, solutionId: id, revision: rerun },
      { jobId: jobIds.testsRerun(id, rerun), attempts: 1 },
    );
}

/** Test evidence marked as not being about the edited code, with its re-run pending (unchanged when it does not decode). */
function staleTests(raw: unknown, at: string, revision: number): unknown {
  const t = SolutionTests.safeParse(raw);
  return t.success ? { ...t.data, stale: { at, by: "edit" }, rerunPending: { revision } } : raw;
}

/** The solution's files with the edits applied; refuses edits of unknown, deleted or changed files. */
function applyModifications(solution: SolutionRow, body: ModifyBody) {
  if (solution.status !== "pending") throw solutionErrors.notPending(solution.status);
  const files: FileChange[] = solution.files_changed.map((f) => ({ ...f }));
  const reasons: string[] = [];
  const edits: { filename: string; reason: string }[] = [];
  for (const m of body.modifications) {
    const file = files.find((f) => f.filename === m.filename);
    if (!file) throw solutionErrors.unknownFile(m.filename);
    if (file.content !== m.originalContent) throw solutionErrors.stale(m.filename);
    if (file.action === "delete") throw solutionErrors.unknownFile(m.filename);
    file.content = m.modifiedContent;
    const reason = m.reason?.trim() || body.comments?.trim() || MANUAL;
    reasons.push(reason);
    edits.push({ filename: m.filename, reason });
  }
  return { files, reasons, edits };
}
