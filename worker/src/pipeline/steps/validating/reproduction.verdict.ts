import type {
  ReproductionResult,
  SolutionCandidates,
  SolutionReproduction,
  SolutionTests,
  SolutionUnverified,
} from "@fixloop/contract";
import { abstain, attemptEvidence } from "./abstention";
import type { Reproducing } from "./reproduction.step";

export interface Verdict {
  reproduction: SolutionReproduction | null;
  unverified: SolutionUnverified | null;
  info: string[];
  warnings: string[];
}

/**
 * The reproduction test's line and the abstention check: with candidates, over every candidate's
 * evidence; with one attempt, over the kept attempt's tests.
 */
export function verdictOf(
  reproducing: Reproducing | null,
  ranked: SolutionCandidates | undefined,
  tests: SolutionTests,
  blocked: boolean,
  single: ReproductionResult | null,
): Verdict {
  const stored = reproducing?.stored ?? null;
  const winner = ranked?.candidates.find((c) => c.n === ranked.winner);
  const passes = stored?.status === "kept" ? (ranked ? winner?.evidence.reproduction : single)?.status : undefined;
  const reproduction = stored
    ? { ...stored, passesWithSolution: passes === undefined ? null : passes === "fixed" }
    : null;
  const evidence = ranked ? ranked.candidates.map((c) => c.evidence) : [attemptEvidence(tests, blocked, single)];
  const unverified = abstain(evidence, reproduction);
  const info = reproducing?.note ? [reproducing.note] : [];
  if (reproduction?.status === "kept" && passes)
    info.push(
      passes === "fixed"
        ? `The reproduction test passes with the ${ranked ? `winner (candidate ${ranked.winner})` : "change"}`
        : `The reproduction test ${passes === "not-run" ? "did not run" : "still fails"} with the ${ranked ? "winner" : "change"}`,
    );
  return {
    reproduction,
    unverified,
    info,
    warnings: unverified ? [`Unverified: ${unverified.reason}`] : [],
  };
}
