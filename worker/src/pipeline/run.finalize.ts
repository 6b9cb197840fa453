import { runs, type Db, type RunClaim, type SolutionMetadata } from "@fixloop/db";
import type { AnalyzingOutput, ContextOutput, GeneratingOutput, ValidatingOutput } from "@fixloop/contract";

export interface FinalizeInput {
  /** The run's claim: a worker that lost the run stores nothing (ClaimLost). */
  claim: RunClaim;
  analyzing: AnalyzingOutput;
  context: ContextOutput;
  generating: GeneratingOutput;
  validating: ValidatingOutput;
  feedback?: string;
}

function metadata(i: FinalizeInput): SolutionMetadata {
  const v = i.validating;
  return {
    repository: `${i.context.owner}/${i.context.repo}`,
    classification: i.analyzing.classification,
    validation: v.validation,
    riskScore: v.riskScore,
    testSuggestions: v.testSuggestions,
    advancedValidation: v.advancedValidation,
    blocked: v.blocked,
    model: (i.validating.generating ?? i.generating).model,
    baseCommitSha: i.context.commitSha,
    defaultBranch: i.context.defaultBranch,
    ...(v.tests ? { tests: v.tests } : {}),
    ...(v.candidates ? { candidates: v.candidates } : {}),
    ...(v.reproduction ? { reproduction: v.reproduction } : {}),
    ...(v.unverified ? { unverified: v.unverified } : {}),
  };
}

/**
 * Stores the outcome of a finished run exactly once (see `runs.finish`): a new solution (solve)
 * or a new revision of the existing one (refine). Returns the solution id.
 */
export async function finalizeRun(db: Db, i: FinalizeInput): Promise<string> {
  // The tests' repair round may have replaced the first generation; confidence is weighed by the test evidence.
  const generated = i.validating.generating ?? i.generating;
  return runs.finish(db, i.claim, {
    analysis: generated.analysis,
    proposedSolution: generated.proposedSolution,
    model: generated.model.name,
    confidence: i.validating.confidence ?? generated.confidence,
    filesChanged: generated.filesChanged,
    metadata: metadata(i),
    baseCommitSha: i.context.commitSha,
    feedback: i.feedback ?? null,
  });
}
