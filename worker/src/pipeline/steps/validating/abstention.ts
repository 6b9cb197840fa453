import type {
  CandidateEvidence,
  ReproductionResult,
  SolutionReproduction,
  SolutionTests,
  SolutionUnverified,
} from "@fixloop/contract";

/** What abstention reads of one candidate (or of a single attempt). */
export type Evidence = Pick<
  CandidateEvidence,
  "testsRan" | "status" | "regressions" | "fixed" | "blocked" | "reason" | "noneRelated" | "docsOnly"
> & {
  reproduction?: ReproductionResult | null;
};

/** A single attempt's evidence, from its tests. */
export function attemptEvidence(t: SolutionTests, blocked: boolean, repro: ReproductionResult | null): Evidence {
  const ran = t.status === "passed" || t.status === "failed";
  return {
    testsRan: ran,
    status: t.status,
    ...(t.reason ? { reason: t.reason } : {}),
    regressions: ran ? t.regressions : [],
    // Only tests that failed on the base tree: a test absent from it (added) could not fail there.
    fixed: ran ? t.fixed : [],
    blocked,
    reproduction: repro,
    ...(t.noneRelated ? { noneRelated: true } : {}),
    ...(t.docsOnly ? { docsOnly: true } : {}),
  };
}

/** Tests that ran and passed with no regression: no regression found, which alone proves nothing. */
const clean = (e: Evidence) => !e.blocked && e.testsRan && e.status === "passed" && !e.regressions.length;

/**
 * Positive evidence touches the change: the tests pass with no regression and either the kept
 * reproduction test (failing on the base tree) passes, or, with no reproduction kept, a test that
 * failed on the base tree passes. Passing before and after with nothing else is not proof.
 */
export function positive(e: Evidence, kept: boolean): boolean {
  if (e.blocked) return false;
  // Documentation only: no test proves it (the reviewer reads it); a configured command that ran must not regress.
  if (e.docsOnly) return !e.regressions.length && e.status !== "failed";
  // No repository test relates to the change: none can regress, only the reproduction test proves it.
  if (e.noneRelated) return kept && e.reproduction?.status === "fixed";
  if (!clean(e)) return false;
  return kept ? e.reproduction?.status === "fixed" : e.fixed.length > 0;
}

/**
 * Abstention: when no candidate has positive evidence the solution is unverified, with the reason
 * in a sentence (null when one candidate has positive evidence).
 */
export function abstain(all: Evidence[], reproduction: SolutionReproduction | null): SolutionUnverified | null {
  const kept = reproduction?.status === "kept";
  if (!all.length || all.some((e) => positive(e, kept))) return null;
  const one = all.length === 1;
  const who = one ? "The change" : "Every candidate";
  const unblocked = all.filter((e) => !e.blocked);
  if (!unblocked.length) return { reason: `${who} is blocked by the policy checks; no test ran.` };
  if (unblocked.every((e) => !e.testsRan)) {
    const why = unblocked[0]?.reason ?? unblocked[0]?.status ?? "not run";
    return { reason: `No test ran (${why}): nothing shows that the change fixes the issue.` };
  }
  const ran = unblocked.filter((e) => e.testsRan);
  if (ran.every((e) => e.regressions.length))
    return {
      reason: one
        ? `The change breaks tests that passed before (${ran[0]?.regressions.slice(0, 3).join(", ")}).`
        : "Every candidate breaks tests that passed before.",
    };
  if (kept && ran.every((e) => e.reproduction?.status !== "fixed"))
    return {
      reason: `${one ? "The change does not make" : "No candidate makes"} the reproduction test (${reproduction.filename}) pass.`,
    };
  if (!kept && ran.some(clean))
    return {
      reason:
        "No regression found, but no test that concerns the change failed before it and passes after (no reproduction test kept, no failing test fixed): nothing shows that the change fixes the issue.",
    };
  return {
    reason: one
      ? "The change's tests fail after it (or its reproduction test still fails)."
      : "No candidate passes both the tests without regressions and the reproduction test.",
  };
}
