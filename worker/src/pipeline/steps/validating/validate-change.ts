import { storableText, assessChange, type ChangeValidation, type ValidateChangeInput } from "@fixloop/contract";
import type { PullRequestLimits } from "../../../pull-requests/pull-requests.limits";
import { baseTree, pullRequestRefusals } from "./pull-request-refusals";
import { syntaxErrorsOf } from "./syntax-check";

export type { ChangeValidation };

export interface BaseTreeCheck {
  /** Symbolic links at the base commit. */
  links: readonly string[];
  limits: PullRequestLimits;
}

/**
 * The contract's deterministic assessment, with the files parsed for syntax errors first and,
 * when the base tree is known, what the pull-request job would refuse.
 */
export async function validateChange(input: ValidateChangeInput, base?: BaseTreeCheck): Promise<ChangeValidation> {
  // Judged as stored: text Postgres cannot hold is kept as U+FFFD, which the job reads as binary.
  const stored = input.files.map((f) => ({
    ...f,
    content: storableText(f.content),
    originalContent: storableText(f.originalContent),
  }));
  const refusals =
    base && input.existingPaths
      ? pullRequestRefusals(stored, baseTree(input.existingPaths, base.links), base.limits)
      : [];
  return assessChange({ ...input, syntaxErrors: await syntaxErrorsOf(input.files), refusals });
}
