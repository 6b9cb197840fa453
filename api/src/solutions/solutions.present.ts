import {
  Complexity,
  complexityOfChange,
  domain,
  reproductionPasses,
  solutionCandidatesOf,
  solutionReproductionOf,
  solutionUnverifiedOf,
  SolutionTests,
  suggestionsWithEvidence,
  summarizeTests,
  actionsOf,
  standing,
} from "@fixloop/contract";
import type { OwnedSolution } from "./solutions.owned";

const num = (v: number, d: number): number => (Number.isFinite(v) ? v : d);
/** Validation findings are stored as strings or `{message}`; the API always answers `{message}`. */
const messages = (v: (string | { message: string })[] | undefined): { message: string }[] =>
  (v ?? []).map((m) => (typeof m === "string" ? { message: m } : { message: m.message }));

/** A solution in the spec's shape (`_id`, `issueId` populated, metadata with every validation field). */
export function presentSolution({ solution: s, issue }: OwnedSolution) {
  const meta = s.metadata;
  const validation = meta.validation ?? {};
  const stats = validation.stats ?? {};
  const riskScore = meta.riskScore ?? 0;
  const { breaking: _breaking, ...classification } = meta.classification ?? {};
  const advanced = meta.advancedValidation ?? {};
  const files = s.files_changed;
  const estimated = Complexity.safeParse(classification.complexity);
  const complexity = complexityOfChange(estimated.success ? estimated.data : "medium", {
    filesChanged: files.length,
    linesAdded: stats.linesAdded ?? 0,
    linesRemoved: stats.linesRemoved ?? 0,
  });
  const parsedTests = SolutionTests.safeParse(meta.tests);
  const tests = parsedTests.success ? parsedTests.data : null;
  return {
    _id: s.id,
    issueId: {
      _id: issue.id,
      title: issue.title,
      issueNumber: issue.issue_number,
      repoFullName: issue.repo_full_name,
      /** What may be done with the solution's issue (refine, approve, push...), or why not (a transfer's with where it went). */
      actions: actionsOf(standing(issue)),
    },
    analysis: s.analysis,
    proposedSolution: s.proposed_solution,
    aiModel: s.ai_model,
    confidence: num(s.confidence, domain.FALLBACK_CONFIDENCE),
    filesChanged: files.map((f) => ({
      filename: f.filename,
      action: f.action,
      content: f.content,
      originalContent: f.originalContent,
    })),
    metadata: {
      repository: meta.repository ?? issue.repo_full_name,
      /** The branch the solution was read and tested at (null: made before it was recorded, the default branch). */
      baseBranch: meta.defaultBranch ?? null,
      classification: {
        type: classification.type ?? "bug",
        ...classification,
        /** Estimated from the issue text, bounded by the change's size (a one-line fix is simple). */
        complexity,
      },
      validation: {
        riskLevel: domain.resolveRiskLevel(validation.riskLevel, riskScore),
        stats: {
          filesChanged: stats.filesChanged ?? files.length,
          linesAdded: stats.linesAdded ?? 0,
          linesRemoved: stats.linesRemoved ?? 0,
          percentageChanged: stats.percentageChanged ?? 0,
          newFiles: stats.newFiles ?? files.filter((f) => f.action === "create").length,
          deletedFiles: stats.deletedFiles ?? files.filter((f) => f.action === "delete").length,
        },
        warnings: validation.warnings ?? [],
        // Stale evidence is about the generated change, not the edited one: it proves nothing of it.
        suggestions: suggestionsWithEvidence(validation.suggestions ?? [], {
          fixed: tests && !tests.stale ? tests.fixed : [],
          reproductionPasses: reproductionPasses(meta),
        }),
      },
      riskScore,
      testSuggestions: meta.testSuggestions ?? [],
      refinementCount: s.refinement_count,
      advancedValidation: {
        score: advanced.score ?? 100,
        errors: messages(advanced.errors),
        warnings: messages(advanced.warnings),
      },
      blocked: meta.blocked ?? [],
      /** Test evidence (null for solutions from before tests ran). */
      tests,
      /** Every candidate with its evidence and rank (null for a single attempt); their logs stay in storage. */
      candidates: candidatesView(meta.candidates),
      /** The reproduction test written before the fix (null: none), and whether it passes with the current files. */
      reproduction: solutionReproductionOf(meta.reproduction),
      reproductionPasses: reproductionPasses(meta),
      /** Set when no candidate had positive evidence: the reason. */
      unverified: solutionUnverifiedOf(meta.unverified),
    },
    /** Badge for lists: status and counts after the patch. */
    tests: tests ? summarizeTests(tests) : null,
    status: s.status,
    revision: s.revision,
    runId: s.run_id,
    createdAt: s.created_at.toISOString(),
    updatedAt: s.updated_at.toISOString(),
  };
}
export type SolutionView = ReturnType<typeof presentSolution>;

function candidatesView(raw: unknown) {
  const set = solutionCandidatesOf(raw);
  if (!set) return null;
  return {
    ...set,
    candidates: set.candidates.map((c) => ({ ...c, tests: c.tests ? { ...c.tests, logTail: "" } : undefined })),
  };
}

/** A list entry: everything but the test log tail (the detail page has it). */
export function presentSolutionListItem(owned: OwnedSolution): SolutionView {
  const v = presentSolution(owned);
  const t = v.metadata.tests;
  return t ? { ...v, metadata: { ...v.metadata, tests: { ...t, logTail: "" } } } : v;
}
