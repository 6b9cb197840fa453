import { z } from "zod";
import { FileChange } from "./file-change";
import { SolutionTests, TestsStatus } from "./tests";

/** How many candidate patches a run may generate, and the default (one: a single attempt as before). */
export const CANDIDATES_MIN = 1;
export const CANDIDATES_MAX = 4;
export const DEFAULT_CANDIDATES = 1;
export const CandidateCount = z.number().int().min(CANDIDATES_MIN).max(CANDIDATES_MAX);

/** A run input's `candidates`, read leniently (anything else: one). */
export function runCandidatesOf(stored: unknown): number {
  const v = CandidateCount.safeParse((stored as { candidates?: unknown } | null)?.candidates);
  return v.success ? v.data : DEFAULT_CANDIDATES;
}

/** One generated candidate before its tests ran: its files, what the model said, and how it was asked. */
export const GeneratedCandidate = z.object({
  n: CandidateCount,
  /** What was varied for it (sampling temperature, file order). */
  variation: z.string(),
  analysis: z.string(),
  proposedSolution: z.string(),
  confidence: z.number(),
  filesChanged: z.array(FileChange),
  /** Candidates whose normalised patch is identical to this one (folded into it: each is one vote). */
  duplicates: z.array(CandidateCount),
});
export type GeneratedCandidate = z.infer<typeof GeneratedCandidate>;

/** A kept reproduction test's result for one candidate (null when no reproduction test was kept). */
export const ReproductionResult = z.object({
  test: z.string(),
  status: z.enum(["fixed", "still-failing", "not-run"]),
});
export type ReproductionResult = z.infer<typeof ReproductionResult>;

/** What the tests say about one candidate (the ranking's inputs). */
export const CandidateEvidence = z.object({
  /** The tests ran to the end on base and on this candidate. */
  testsRan: z.boolean(),
  status: TestsStatus,
  reason: z.string().optional(),
  regressions: z.array(z.string()),
  fixed: z.array(z.string()),
  /** Blocked by the deterministic policy checks (never chosen over an unblocked candidate). */
  blocked: z.boolean(),
  /** Identical or equivalent candidates, this one included. */
  votes: z.number().int().min(1),
  /** Lines added plus lines removed. */
  changedLines: z.number().int().min(0),
  reproduction: ReproductionResult.nullable().optional(),
  /** No repository test relates to it (none ran, none could regress): only its reproduction test can prove it. */
  noneRelated: z.boolean().optional(),
  /** It changes documentation only: no test applies, the reviewer reads it. */
  docsOnly: z.boolean().optional(),
});
export type CandidateEvidence = z.infer<typeof CandidateEvidence>;

export const SolutionCandidate = GeneratedCandidate.extend({
  evidence: CandidateEvidence,
  /** 1 = the winner by evidence. */
  rank: z.number().int().min(1),
  /** Why it ranks where it does, in a sentence. */
  rankReason: z.string(),
  /** This candidate's own test evidence (becomes the solution's when a reviewer switches to it). */
  tests: SolutionTests.optional(),
});
export type SolutionCandidate = z.infer<typeof SolutionCandidate>;

/** `solution.metadata.candidates`: every candidate with its evidence, the winner, and the reviewer's switches. */
export const SolutionCandidates = z.object({
  /** The candidate the ranking chose. */
  winner: CandidateCount,
  /** The candidate whose files the solution carries now. */
  selected: CandidateCount,
  /** Why the winner won, in a sentence. */
  reason: z.string(),
  /** How many candidates the run asked for (duplicates included). */
  requested: CandidateCount,
  candidates: z.array(SolutionCandidate),
  switches: z.array(z.object({ from: CandidateCount, to: CandidateCount, at: z.string() })),
});
export type SolutionCandidates = z.infer<typeof SolutionCandidates>;

/** A candidate's live state on the solve page: one `candidate` run event per change. */
export const CandidateState = z.enum(["generated", "duplicate", "testing", "tested", "failed"]);
export const CandidateEvent = z.object({
  type: z.literal("candidate"),
  n: CandidateCount,
  state: CandidateState,
  /** One line: what it is doing or what the tests said. */
  summary: z.string(),
  evidence: CandidateEvidence.optional(),
  rank: z.number().int().min(1).optional(),
  at: z.string(),
});
export type CandidateEvent = z.infer<typeof CandidateEvent>;

/** The stored candidates, or null when the solution has none (a single attempt, or a shape that does not decode). */
export function solutionCandidatesOf(raw: unknown): SolutionCandidates | null {
  const r = SolutionCandidates.safeParse(raw);
  return r.success ? r.data : null;
}
