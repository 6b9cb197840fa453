import { runs, solutions, type Conn } from "@fixloop/db";
import { solutionErrors } from "./solutions.errors";

export type OwnedSolution = solutions.OwnedSolution;
export type SolutionRow = solutions.SolutionRow;

/** The caller's solution with its issue; another user's (or a deleted) solution is 404. */
export async function findOwnedSolution(db: Conn, userId: string, id: string): Promise<OwnedSolution> {
  const owned = await solutions.findOwned(db, userId, id);
  if (!owned) throw solutionErrors.notFound();
  return owned;
}

/** findOwnedSolution inside a transaction, with the row locked until it ends so concurrent changes queue. */
export async function lockOwnedSolution(trx: Conn, userId: string, id: string): Promise<OwnedSolution> {
  const owned = await solutions.lockOwned(trx, userId, id);
  if (!owned) throw solutionErrors.notFound();
  return owned;
}

/**
 * lockOwnedSolution for a change of the solution's files (a hand edit, a candidate switch, the
 * reproduction test): it must be pending, and no refinement of it may be running, since that
 * refinement, built from the files as they were, would replace the change when it finishes.
 */
export async function lockEditableSolution(trx: Conn, userId: string, id: string): Promise<OwnedSolution> {
  const owned = await lockOwnedSolution(trx, userId, id);
  if (owned.solution.status !== "pending") throw solutionErrors.notPending(owned.solution.status);
  if (await runs.activeRefineOf(trx, id)) throw solutionErrors.refiningEdit();
  return owned;
}
