import { changeSizeBreach, changeSizeLimitsOf, type FileChange } from "@fixloop/contract";
import type { AppDeps } from "../deps";
import { solutionErrors } from "./solutions.errors";

/**
 * Refuses the files of a hand-made revision (an edit, a switch of candidate, the reproduction test
 * added) that the pull-request job would refuse for their size, in the job's words (422).
 */
export function refuseOversized(env: AppDeps["env"], files: FileChange[]): void {
  const breach = changeSizeBreach(files, changeSizeLimitsOf(env));
  if (breach) throw solutionErrors.tooLarge(breach.message);
}
