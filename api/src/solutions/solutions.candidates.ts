import { z } from "zod";
import { solutions } from "@fixloop/db";
import { assessChange, CandidateCount, solutionCandidatesOf } from "@fixloop/contract";
import type { AppDeps } from "../deps";
import { AppError } from "../http/errors";
import { findOwnedSolution, lockEditableSolution } from "./solutions.owned";
import { refuseOversized } from "./solutions.revision";
import { checkSyntax } from "./solutions.syntax";

export const CandidateParam = z.object({ id: z.string().max(100), n: z.coerce.number().pipe(CandidateCount) });

const candidateNotFound = (n: number) =>
  new AppError(404, "solution.candidate_not_found", `This solution has no candidate ${n}`);

/**
 * Makes candidate `n`'s files (and explanation, and test evidence) the solution's, as a new
 * revision, and records the switch; the pull request then carries them. Only a pending solution
 * can switch; switching to the candidate already selected changes nothing.
 */
export async function selectCandidate(deps: AppDeps, userId: string, id: string, n: number): Promise<boolean> {
  const before = await findOwnedSolution(deps.db, userId, id);
  const chosen = solutionCandidatesOf(before.solution.metadata.candidates)?.candidates.find((c) => c.n === n);
  if (!chosen) throw candidateNotFound(n);
  refuseOversized(deps.env, chosen.filesChanged);
  const syntaxErrors = await checkSyntax(deps, chosen.filesChanged);
  return deps.db.transaction().execute(async (trx) => {
    const { solution } = await lockEditableSolution(trx, userId, id);
    const set = solutionCandidatesOf(solution.metadata.candidates);
    const c = set?.candidates.find((x) => x.n === n);
    if (!set || !c) throw candidateNotFound(n);
    if (set.selected === n) return false;
    await solutions.keepCurrentRevision(trx, solution);
    const check = assessChange({ files: c.filesChanged, existingPaths: null, syntaxErrors });
    const at = new Date().toISOString();
    const { tests: _previous, ...rest } = solution.metadata;
    await solutions.recordManualEdit(trx, solution, {
      filesChanged: c.filesChanged,
      reason: `Switched from candidate ${set.selected} to candidate ${n}`,
      words: { analysis: c.analysis, proposedSolution: c.proposedSolution },
      metadata: {
        ...rest,
        ...check,
        // The evidence now is the chosen candidate's own (none when its tests did not run).
        ...(c.tests ? { tests: c.tests } : {}),
        candidates: { ...set, selected: n, switches: [...set.switches, { from: set.selected, to: n, at }] },
      },
    });
    return true;
  });
}
