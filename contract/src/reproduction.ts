import { z } from "zod";
import { solutionCandidatesOf } from "./candidates";

/** The forced tool call that asks the model for a test reproducing the issue. */
export const REPRODUCTION_TOOL = "write_reproduction_test";

/** The model's answer: one new test file (an empty filename: it could not write one). */
export const ReproductionAnswer = z.object({
  filename: z.string().max(300),
  content: z.string().max(64 * 1024),
  reason: z.string().max(2_000).default(""),
});
export type ReproductionAnswer = z.infer<typeof ReproductionAnswer>;

export const REPRODUCTION_JSON_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["filename", "content", "reason"],
  properties: {
    filename: {
      type: "string",
      description: "Path of the new test file, relative to the repository root, where the test runner finds it.",
    },
    content: { type: "string", description: "The whole file." },
    reason: { type: "string", description: "What the test checks, in one sentence." },
  },
} as const;

/**
 * `solution.metadata.reproduction`: the test the model wrote before the fix, checked on the base
 * tree. Only a kept test (it runs and fails there) scores the candidates.
 */
export const SolutionReproduction = z.object({
  filename: z.string(),
  content: z.string(),
  status: z.enum(["kept", "discarded"]),
  /** The step's sentence ("kept: … fails on the base tree", "discarded: passes on the base tree"). */
  note: z.string(),
  /** Its tests that fail on the base tree (the ones a fix must make pass). */
  failing: z.array(z.string()),
  /** Whether it passes with the solution's files applied (null: not run). */
  passesWithSolution: z.boolean().nullable(),
});
export type SolutionReproduction = z.infer<typeof SolutionReproduction>;

/**
 * What step 4 stores about the reproduction test it asked for before generating the fix: the test
 * and its check on the base tree (null: none was written or it was not asked), the step's line
 * about it, and what the request cost. Step 5 scores each candidate on a kept test.
 */
export const StepReproduction = z.object({
  test: SolutionReproduction.nullable(),
  note: z.string(),
  tokensIn: z.number(),
  tokensOut: z.number(),
  costUsd: z.number(),
});
export type StepReproduction = z.infer<typeof StepReproduction>;

/** `solution.metadata.unverified`: no candidate had positive evidence; the reason, in a sentence. */
export const SolutionUnverified = z.object({ reason: z.string() });
export type SolutionUnverified = z.infer<typeof SolutionUnverified>;

export function solutionReproductionOf(raw: unknown): SolutionReproduction | null {
  const r = SolutionReproduction.safeParse(raw);
  return r.success ? r.data : null;
}

export function solutionUnverifiedOf(raw: unknown): SolutionUnverified | null {
  const r = SolutionUnverified.safeParse(raw);
  return r.success ? r.data : null;
}

/**
 * Whether the kept reproduction test passes with the files the solution carries now: the
 * selected candidate's result when there are candidates, else the single attempt's. Once the files
 * were edited by hand, only a tests re-run on them can say so (`passesWithSolution`).
 */
export function reproductionPasses(metadata: {
  reproduction?: unknown;
  candidates?: unknown;
  manualEdits?: unknown;
}): boolean {
  const r = solutionReproductionOf(metadata.reproduction);
  if (!r || r.status !== "kept") return false;
  if (Array.isArray(metadata.manualEdits) && metadata.manualEdits.length) return r.passesWithSolution === true;
  const set = solutionCandidatesOf(metadata.candidates);
  if (!set) return r.passesWithSolution === true;
  return set.candidates.find((c) => c.n === set.selected)?.evidence.reproduction?.status === "fixed";
}

/**
 * The pull request body's statement for a solution approved although unverified; `asDraft` false when
 * the repository refused a draft and the pull request is open as a regular one.
 */
export function unverifiedStatement(u: SolutionUnverified, asDraft = true): string {
  return asDraft
    ? `> **Unverified:** ${u.reason} Fixloop opened this pull request as a draft because the reviewer approved it without positive test evidence.`
    : `> **Unverified:** ${u.reason} The reviewer approved it without positive test evidence; do not merge it before it is verified.`;
}
