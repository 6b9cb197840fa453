import type {
  CandidateEvidence,
  ReproductionResult,
  SolutionReproduction,
  SolutionTests,
  SolutionUnverified,
} from "@fixloop/contract";

/** What abstention reads of one candidate (or of a single attempt). */
export type Evidence = Pick<CandidateEvidence, "testsRan" | "status" | "regressions" | "blocked" | "reason"> & {
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
    blocked,
    reproduction: repro,
  };
}

/** Positive evidence: the tests ran and passed (no regression), and a kept reproduction test passes too. */
export function positive(e: Evidence, kept: boolean): boolean {
  return (
    !e.blocked &&
    e.testsRan &&
    e.status === "passed" &&
    !e.regressions.length &&
    (!kept || e.reproduction?.status === "fixed")
  );
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
  return {
    reason: one
      ? "The change's tests fail after it (or its reproduction test still fails)."
      : "No candidate passes both the tests without regressions and the reproduction test.",
  };
}
