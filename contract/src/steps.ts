import { AgentTrajectory } from "./agent";
import { GeneratedCandidate, SolutionCandidates } from "./candidates";
import { SolutionReproduction, SolutionUnverified, StepReproduction } from "./reproduction";
import { z } from "zod";
import { ChangeValidation } from "./change/assess-change";
import type { StepId } from "./domain/statuses";
import { FileChange } from "./file-change";
import { SolutionTests } from "./tests";

/**
 * What each solve step stores as its output (run_steps.output) and what the later steps read.
 * Stored outputs are decoded with these schemas when a run resumes or a refinement reuses them.
 */

export const ISSUE_TYPES = ["bug", "feature", "docs", "refactor", "performance", "security", "test", "chore"] as const;
export type IssueType = (typeof ISSUE_TYPES)[number];
export const Complexity = z.enum(["simple", "medium", "complex"]);
export type Complexity = z.infer<typeof Complexity>;

export const AnalyzingOutput = z.object({
  classification: z.object({ type: z.enum(ISSUE_TYPES), complexity: Complexity }),
  /** Issue text with hidden characters, bidi controls and HTML comments removed; later steps read only this. */
  title: z.string(),
  body: z.string(),
  labels: z.array(z.string()),
  removedCharacters: z.number(),
});
export type AnalyzingOutput = z.infer<typeof AnalyzingOutput>;

export const TreeFile = z.object({
  path: z.string(),
  sha: z.string(),
  size: z.number(),
  /** A symbolic link (mode 120000), not a file. */
  link: z.boolean().optional(),
});
export type TreeFile = z.infer<typeof TreeFile>;

export const ContextOutput = z.object({
  owner: z.string(),
  repo: z.string(),
  defaultBranch: z.string(),
  commitSha: z.string(),
  treeSha: z.string(),
  /** Every path at the head (existence checks); `files` is what is worth reading. */
  allPaths: z.array(z.string()),
  /** Paths at the head that are symbolic links (mode 120000): a change through them is refused. */
  links: z.array(z.string()).optional(),
  files: z.array(TreeFile),
  languages: z.array(z.object({ language: z.string(), files: z.number(), percent: z.number() })),
});
export type ContextOutput = z.infer<typeof ContextOutput>;

export const ChosenFile = z.object({
  path: z.string(),
  score: z.number(),
  reasons: z.array(z.string()),
  content: z.string(),
  /** Its functions and classes most likely to change, best first (a long file's skeleton shows them in full). */
  symbols: z.array(z.string()).optional(),
});
export type ChosenFile = z.infer<typeof ChosenFile>;

export const DependenciesOutput = z.object({
  files: z.array(ChosenFile),
  /** Test files near each chosen file in the import graph (the validating step suggests them). */
  testsNear: z.record(z.string(), z.array(z.string())),
  repoMap: z.string(),
  graph: z.object({ nodes: z.number(), edges: z.number() }),
});
export type DependenciesOutput = z.infer<typeof DependenciesOutput>;

/** A model edit that could not be applied to its file. */
export const EditFailure = z.object({ filename: z.string(), search: z.string(), reason: z.string() });
export type EditFailure = z.infer<typeof EditFailure>;

export const GeneratingOutput = z.object({
  analysis: z.string(),
  proposedSolution: z.string(),
  confidence: z.number(),
  filesChanged: z.array(FileChange),
  model: z.object({ id: z.string(), name: z.string(), provider: z.string() }),
  tokensIn: z.number(),
  tokensOut: z.number(),
  costUsd: z.number(),
  attempts: z.number(),
  repaired: z.boolean(),
  editRepair: z.boolean(),
  unappliedEdits: z.array(EditFailure),
  /** Every candidate when the run asked for more than one (the fields above are candidate 1's). */
  candidates: z.array(GeneratedCandidate).optional(),
  /** The reproduction test asked before the fix was generated (absent: the sandbox was off, or a run stored before this field). */
  reproduction: StepReproduction.optional(),
  /** Investigate runs: each candidate's agent trajectory (what it searched, opened, ran and edited). */
  agent: z.array(AgentTrajectory).optional(),
});
export type GeneratingOutput = z.infer<typeof GeneratingOutput>;

/** What the validating step stores: the static checks, the test evidence and, when the repair round won, its generation. */
export const ValidatingOutput = ChangeValidation.extend({
  tests: SolutionTests,
  confidence: z.number().optional(),
  generating: GeneratingOutput.optional(),
  /** The candidates with their evidence and rank, when the run generated more than one. */
  candidates: SolutionCandidates.optional(),
  /** The reproduction test the model wrote, and whether it was kept. */
  reproduction: SolutionReproduction.optional(),
  /** No candidate had positive evidence (abstention). */
  unverified: SolutionUnverified.optional(),
});
export type ValidatingOutput = z.infer<typeof ValidatingOutput>;

/** Every step's output, by step id. */
export const StepOutputs = z.object({
  analyzing: AnalyzingOutput,
  context: ContextOutput,
  dependencies: DependenciesOutput,
  generating: GeneratingOutput,
  validating: ValidatingOutput,
}) satisfies z.ZodType<Record<StepId, unknown>>;
export type StepOutputs = z.infer<typeof StepOutputs>;

/** What each step reads: the outputs of the earlier steps it depends on. */
export interface StepInputs {
  analyzing: Record<never, never>;
  context: Record<never, never>;
  dependencies: Pick<StepOutputs, "analyzing" | "context">;
  generating: Pick<StepOutputs, "analyzing" | "context" | "dependencies">;
  validating: Pick<StepOutputs, "analyzing" | "context" | "dependencies" | "generating">;
}
export type StepInput<K extends StepId> = StepInputs[K];
export type StepOutput<K extends StepId> = StepOutputs[K];

/** A refine run reuses these steps of the solution's original run; only generation and validation run again. */
export const REUSED_ON_REFINE = ["analyzing", "context", "dependencies"] as const satisfies readonly StepId[];
