import { solutions } from "@fixloop/db";
import { assessChange, reproductionPasses, solutionReproductionOf } from "@fixloop/contract";
import type { AppDeps } from "../deps";
import { AppError } from "../http/errors";
import { findOwnedSolution, lockEditableSolution } from "./solutions.owned";
import { refuseOversized } from "./solutions.revision";
import { checkSyntax } from "./solutions.syntax";

const unavailable = () =>
  new AppError(
    409,
    "solution.reproduction_unavailable",
    "This solution has no reproduction test that passes with its files",
  );

/**
 * Adds the kept reproduction test to the solution's files (a new revision), on the reviewer's
 * request: offered only when it passes with the files the solution carries. Adding it again
 * changes nothing.
 */
export async function includeReproduction(deps: AppDeps, userId: string, id: string): Promise<boolean> {
  const before = await findOwnedSolution(deps.db, userId, id);
  const file = solutionReproductionOf(before.solution.metadata.reproduction);
  const syntaxErrors = file
    ? await checkSyntax(deps, [{ ...file, action: "create", originalContent: "" }, ...before.solution.files_changed])
    : null;
  return deps.db.transaction().execute(async (trx) => {
    const { solution } = await lockEditableSolution(trx, userId, id);
    const r = solutionReproductionOf(solution.metadata.reproduction);
    if (!r || !reproductionPasses(solution.metadata)) throw unavailable();
    const files = solution.files_changed;
    if (files.some((f) => f.filename === r.filename)) return false;
    const next = [
      ...files,
      { filename: r.filename, action: "create" as const, content: r.content, originalContent: "" },
    ];
    refuseOversized(deps.env, next);
    await solutions.keepCurrentRevision(trx, solution);
    // The change's assessment (stats, warnings) is made again with the test in it.
    const check = assessChange({ files: next, existingPaths: null, syntaxErrors });
    await solutions.recordManualEdit(trx, solution, {
      filesChanged: next,
      reason: `Included the reproduction test ${r.filename}`,
      metadata: {
        ...solution.metadata,
        ...check,
      },
    });
    return true;
  });
}
