import { type FileChange, type StepDetail, riskSummary } from "@fixloop/contract";
import { validateChange, type BaseTreeCheck, type ChangeValidation } from "./validate-change";

export interface ValidatingInput {
  files: FileChange[];
  existingPaths: string[];
  testsNear: Record<string, string[]>;
  unappliedEdits: number;
  /** Links and pull-request limits: what the pull-request job would refuse is blocked here already. */
  base?: BaseTreeCheck;
}

/** Step 5: deterministic checks of the generated change (existence, parse, policy, risk, stats). */
export async function validating(input: ValidatingInput): Promise<{ output: ChangeValidation; detail: StepDetail }> {
  const testFilesNear = (paths: string[]) => [...new Set(paths.flatMap((p) => input.testsNear[p] ?? []))];
  const v = await validateChange({ files: input.files, existingPaths: input.existingPaths, testFilesNear }, input.base);
  if (input.unappliedEdits) {
    v.advancedValidation.errors.push(`${input.unappliedEdits} edit(s) from the model could not be applied`);
    v.advancedValidation.score = Math.max(0, v.advancedValidation.score - 10 * input.unappliedEdits);
  }
  const s = v.validation.stats;
  const info = [
    `${s.filesChanged} file(s) changed: +${s.linesAdded} / -${s.linesRemoved} lines (${s.percentageChanged}% of touched code)`,
    `Risk: ${riskSummary(v.validation.riskLevel)}`,
    ...(s.newFiles ? [`${s.newFiles} new file(s)`] : []),
    ...(s.deletedFiles ? [`${s.deletedFiles} deleted file(s)`] : []),
    ...v.testSuggestions.slice(0, 3),
  ];
  const warnings = [
    ...v.blocked.map((b) => `Blocked: ${b.path}: ${b.reason}`),
    ...v.advancedValidation.errors.filter((e) => !v.blocked.some((b) => e.startsWith(b.path))),
    ...v.validation.warnings,
  ];
  return {
    output: v,
    detail: { files: input.files.map((f) => f.filename), info, warnings, score: v.advancedValidation.score },
  };
}
