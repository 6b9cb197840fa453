import { domain } from "@fixloop/db";
import { SolutionTests, summarizeTests } from "@fixloop/worker/contract";
import type { OwnedSolution } from "./validations.owned";

type Meta = Record<string, unknown>;
const obj = (v: unknown): Meta => (v && typeof v === "object" && !Array.isArray(v) ? (v as Meta) : {});
const arr = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
const num = (v: unknown, d: number): number => (typeof v === "number" && Number.isFinite(v) ? v : d);
/** Validation findings are stored as strings or `{message}`; the API always answers `{message}`. */
const messages = (v: unknown): { message: string }[] =>
  arr<unknown>(v).map((m) => (typeof m === "string" ? { message: m } : { message: String(obj(m).message ?? "") }));

/** A solution in the spec's shape (`_id`, `issueId` populated, metadata with every validation field). */
export function presentSolution({ solution: s, issue }: OwnedSolution) {
  const meta = obj(s.metadata);
  const validation = obj(meta.validation);
  const stats = obj(validation.stats);
  const riskScore = num(meta.riskScore, 0);
  const classification = obj(meta.classification);
  const advanced = obj(meta.advancedValidation);
  const files = s.files_changed;
  const parsedTests = SolutionTests.safeParse(meta.tests);
  const tests = parsedTests.success ? parsedTests.data : null;
  return {
    _id: s.id,
    issueId: { _id: issue.id, title: issue.title, issueNumber: issue.issue_number, repoFullName: issue.repo_full_name },
    analysis: s.analysis,
    proposedSolution: s.proposed_solution,
    aiModel: s.ai_model,
    confidence: num(s.confidence, domain.FALLBACK_CONFIDENCE),
    filesChanged: files.map((f) => ({
      filename: f.filename,
      action: f.action,
      content: f.content ?? "",
      originalContent: f.originalContent ?? "",
    })),
    metadata: {
      repository: typeof meta.repository === "string" ? meta.repository : issue.repo_full_name,
      classification: {
        type: String(classification.type ?? "bug"),
        complexity: String(classification.complexity ?? "medium"),
        ...classification,
      },
      validation: {
        riskLevel: domain.resolveRiskLevel(validation.riskLevel, riskScore),
        stats: {
          filesChanged: num(stats.filesChanged, files.length),
          linesAdded: num(stats.linesAdded, 0),
          linesRemoved: num(stats.linesRemoved, 0),
          percentageChanged: num(stats.percentageChanged, 0),
          newFiles: num(stats.newFiles, files.filter((f) => f.action === "create").length),
          deletedFiles: num(stats.deletedFiles, files.filter((f) => f.action === "delete").length),
        },
        warnings: arr<string>(validation.warnings),
        suggestions: arr<string>(validation.suggestions),
      },
      riskScore,
      testSuggestions: arr<string>(meta.testSuggestions),
      refinementCount: s.refinement_count,
      advancedValidation: {
        score: num(advanced.score, 100),
        errors: messages(advanced.errors),
        warnings: messages(advanced.warnings),
      },
      blocked: arr<{ path: string; reason: string }>(meta.blocked),
      /** Test evidence (null for solutions from before tests ran). */
      tests,
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

/** A list entry: everything but the test log tail (the detail page has it). */
export function presentSolutionListItem(owned: OwnedSolution): SolutionView {
  const v = presentSolution(owned);
  const t = v.metadata.tests;
  return t ? { ...v, metadata: { ...v.metadata, tests: { ...t, logTail: "" } } } : v;
}
