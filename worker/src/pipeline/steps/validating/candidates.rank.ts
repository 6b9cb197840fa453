import type {
  CandidateEvidence,
  GeneratedCandidate,
  SolutionCandidate,
  SolutionCandidates,
  SolutionTests,
} from "@fixloop/contract";

/** A candidate with what the checks and its tests found. */
export interface Judged {
  candidate: GeneratedCandidate;
  evidence: CandidateEvidence;
  tests?: SolutionTests;
}

/**
 * The ranking's keys, most important first, each lower-is-better: not blocked by policy, the
 * reproduction test fixed, no regressions, tests that ran to the end, more tests fixed, more candidates agreeing (votes),
 * the smaller change, then the order generated.
 */
function keys(j: Judged): number[] {
  const e = j.evidence;
  return [
    e.blocked ? 1 : 0,
    e.reproduction?.status === "fixed" ? 0 : 1,
    e.regressions.length ? 1 : 0,
    e.testsRan ? 0 : 1,
    -e.fixed.length,
    -e.votes,
    e.changedLines,
    j.candidate.n,
  ];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The first key on which `w` beats `l`, in words ("" when `w` is `l`). */
function why(w: Judged, l: Judged, requested: number): string {
  const [kw, kl] = [keys(w), keys(l)];
  const i = kw.findIndex((k, idx) => k !== kl[idx]);
  const n = l.candidate.n;
  const [we, le] = [w.evidence, l.evidence];
  switch (i) {
    case 0:
      return `candidate ${n} is blocked by the policy checks`;
    case 1:
      return `it makes the reproduction test pass; candidate ${n} does not (${le.reproduction?.status === "not-run" ? "it did not run" : "it still fails"})`;
    case 2:
      return `candidate ${n} breaks ${plural(le.regressions.length, "test")} that passed before (${le.regressions.slice(0, 3).join(", ")})`;
    case 3:
      return `candidate ${n}'s tests did not run to the end${le.reason ? ` (${le.reason})` : ""}`;
    case 4:
      return `it fixes ${plural(we.fixed.length, "failing test")} against ${le.fixed.length} for candidate ${n}`;
    case 5:
      return `${we.votes} of ${requested} candidates agree on it, against ${le.votes} for candidate ${n}`;
    case 6:
      return `it is the smaller change (${we.changedLines} changed lines against ${le.changedLines} for candidate ${n})`;
    case 7:
      return `the evidence for candidate ${n} is the same; it was generated first`;
    default:
      return "";
  }
}

/** One line of a candidate's evidence. */
export function evidenceSummary(e: CandidateEvidence): string {
  const parts = [
    e.blocked ? "blocked by policy" : null,
    e.reproduction
      ? e.reproduction.status === "fixed"
        ? "fixes the reproduction test"
        : `reproduction test ${e.reproduction.status === "not-run" ? "not run" : "still fails"}`
      : null,
    e.testsRan
      ? e.regressions.length
        ? `${plural(e.regressions.length, "regression")}`
        : "no regressions"
      : `tests ${e.status === "skipped" ? "not run" : "did not finish"}${e.reason ? ` (${e.reason})` : ""}`,
    e.testsRan ? `fixes ${plural(e.fixed.length, "test")}` : null,
    plural(e.votes, "vote"),
    plural(e.changedLines, "changed line"),
  ];
  return parts.filter(Boolean).join(", ");
}

/** Orders the candidates by evidence; the first is the winner, and every rank says why in a sentence. */
export function rankCandidates(judged: Judged[], requested: number): SolutionCandidates {
  const order = [...judged].sort((a, b) => {
    const [ka, kb] = [keys(a), keys(b)];
    const i = ka.findIndex((k, idx) => k !== kb[idx]);
    return i < 0 ? 0 : (ka[i] ?? 0) - (kb[i] ?? 0);
  });
  const winner = order[0];
  if (!winner) throw new Error("No candidate to rank");
  const losers = order.slice(1).map((l) => why(winner, l, requested));
  const reason = losers.length
    ? `Candidate ${winner.candidate.n} won: ${losers.join("; ")}.`
    : `Candidate ${winner.candidate.n} is the only distinct candidate.`;
  const candidates: SolutionCandidate[] = order.map((j, idx) => ({
    ...j.candidate,
    evidence: j.evidence,
    rank: idx + 1,
    rankReason:
      idx === 0
        ? `Ranked first: ${evidenceSummary(j.evidence)}.`
        : `Ranked ${idx + 1}: against candidate ${winner.candidate.n}, ${why(winner, j, requested)}.`,
    ...(j.tests ? { tests: j.tests } : {}),
  }));
  candidates.sort((a, b) => a.n - b.n);
  return { winner: winner.candidate.n, selected: winner.candidate.n, reason, requested, candidates, switches: [] };
}
