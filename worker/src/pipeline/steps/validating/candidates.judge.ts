import {
  fileChangedLines,
  type CandidateEvent,
  type CandidateEvidence,
  type GeneratedCandidate,
  type GeneratingOutput,
  type ReproductionResult,
  type SolutionTests,
} from "@fixloop/contract";
import { evidenceSummary, rankCandidates, type Judged } from "./candidates.rank";

/** The distinct candidates of a generation, when there is more than one to choose from. */
export function candidatePool(g: GeneratingOutput): GeneratedCandidate[] | null {
  return g.candidates && g.candidates.length > 1 ? g.candidates : null;
}

/** The generation carrying a candidate's files and words (candidate 1 keeps the edits that did not apply). */
export function asGenerating(first: GeneratingOutput, c: GeneratedCandidate): GeneratingOutput {
  if (first.filesChanged === c.filesChanged) return first;
  return {
    ...first,
    analysis: c.analysis,
    proposedSolution: c.proposedSolution,
    confidence: c.confidence,
    filesChanged: c.filesChanged,
    unappliedEdits: [],
  };
}

/** What the checks and the tests say about one candidate. */
export function evidenceOf(
  c: GeneratedCandidate,
  blocked: boolean,
  tests: SolutionTests | null,
  reproduction: ReproductionResult | null = null,
): CandidateEvidence {
  const ran = !!tests && (tests.status === "passed" || tests.status === "failed");
  return {
    testsRan: ran,
    status: tests?.status ?? "skipped",
    ...(tests?.reason ? { reason: tests.reason } : {}),
    regressions: ran && tests ? tests.regressions : [],
    // A test absent from the base tree (added) never failed there: it proves nothing about the fix.
    fixed: ran && tests ? tests.fixed : [],
    blocked,
    votes: 1 + c.duplicates.length,
    changedLines: c.filesChanged.reduce((n, f) => n + fileChangedLines(f), 0),
    reproduction,
    ...(tests?.noneRelated ? { noneRelated: true } : {}),
    ...(tests?.docsOnly ? { docsOnly: true } : {}),
  };
}

/** A candidate's `tested` event for the solve page's row. */
export function testedEvent(n: number, e: CandidateEvidence): CandidateEvent {
  return {
    type: "candidate",
    n,
    state: "tested",
    summary: evidenceSummary(e),
    evidence: e,
    at: new Date().toISOString(),
  };
}

/** Ranks the pool with the tests each candidate got (none when the tests did not run) and announces the ranks. */
export async function judgeCandidates(
  pool: GeneratedCandidate[],
  requested: number,
  blocked: Set<number>,
  tests: Map<number, SolutionTests>,
  emit: (e: CandidateEvent) => Promise<unknown>,
  reproductions: Map<number, ReproductionResult> = new Map(),
) {
  const judged: Judged[] = pool.map((c) => {
    const t = tests.get(c.n);
    const evidence = evidenceOf(c, blocked.has(c.n), t ?? null, reproductions.get(c.n) ?? null);
    return { candidate: c, evidence, ...(t ? { tests: t } : {}) };
  });
  const ranked = rankCandidates(judged, requested);
  for (const c of ranked.candidates)
    await emit({ ...testedEvent(c.n, c.evidence), rank: c.rank, summary: c.rankReason });
  return ranked;
}

/** A candidate's test run, its evidence and (when a reproduction test was kept) whether it fixes it. */
export interface Tested<A> {
  attempt: A;
  tests: SolutionTests;
  reproduction?: ReproductionResult | null;
}

/** Runs each unblocked candidate's tests in turn, announcing its row as it starts and as it ends. */
export async function testCandidates<A>(
  pool: GeneratedCandidate[],
  blocked: Set<number>,
  emit: (e: CandidateEvent) => Promise<unknown>,
  run: (files: GeneratedCandidate["filesChanged"]) => Promise<Tested<A>>,
): Promise<Map<number, Tested<A>>> {
  const done = new Map<number, Tested<A>>();
  for (const c of pool) {
    if (blocked.has(c.n)) continue;
    await emit({
      type: "candidate",
      n: c.n,
      state: "testing",
      summary: "Running the tests",
      at: new Date().toISOString(),
    });
    const r = await run(c.filesChanged);
    done.set(c.n, r);
    await emit(testedEvent(c.n, evidenceOf(c, false, r.tests, r.reproduction ?? null)));
  }
  return done;
}
