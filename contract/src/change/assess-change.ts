import { z } from "zod";
import { RISK_LEVELS, riskLevelFromScore, type RiskLevel } from "../domain/risk";
import type { FileChange } from "../file-change";
import { fileDiffCounts } from "./diff-counts";
import { INSTALL_RISK_SCORE, installRiskReason } from "./install-risk";
import { addedBidiControls } from "./hidden-chars";
import { deniedChangeReason, riskyPathReason } from "./path-policy";

export const ChangeStats = z.object({
  filesChanged: z.number(),
  linesAdded: z.number(),
  linesRemoved: z.number(),
  percentageChanged: z.number(),
  newFiles: z.number(),
  deletedFiles: z.number(),
});
export type ChangeStats = z.infer<typeof ChangeStats>;

export const ChangeValidation = z.object({
  validation: z.object({
    riskLevel: z.enum(RISK_LEVELS),
    stats: ChangeStats,
    warnings: z.array(z.string()),
    suggestions: z.array(z.string()),
  }),
  riskScore: z.number(),
  testSuggestions: z.array(z.string()),
  advancedValidation: z.object({
    score: z.number(),
    errors: z.array(z.string()),
    warnings: z.array(z.object({ message: z.string() })),
  }),
  /** Paths the patch may not touch; a blocked change must not become a pull request. */
  blocked: z.array(z.object({ path: z.string(), reason: z.string() })),
});
export type ChangeValidation = z.infer<typeof ChangeValidation>;

export interface ValidateChangeInput {
  files: FileChange[];
  /** Paths present at the base commit; null when unknown (existence is then not checked). */
  existingPaths: string[] | null;
  testFilesNear?: (paths: string[]) => string[];
  /**
   * Parse errors per changed file, found by the worker's parsers; the assessment itself parses nothing.
   * null: the parsers did not answer in time, and the assessment says the syntax was not checked.
   */
  syntaxErrors?: Record<string, string[]> | null;
  /**
   * What the pull-request job would refuse (symbolic links, a file over a directory, size limits),
   * found by the worker against the base tree: blocked like a denied path, with the job's reason.
   */
  refusals?: { path: string; reason: string }[];
}

const LARGE_DELETION_LINES = 200;
/** Said of a change whose files touch no test; the evidence may show a test that proves it all the same. */
export const NO_TEST_SUGGESTION = "The change has no test; add one that fails before the fix and passes after";
export const INCLUDE_REPRODUCTION_SUGGESTION =
  "Include the reproduction test below: it fails before the fix and passes after";

/**
 * The stored suggestions, told by the test evidence found after the assessment: a repository test
 * that failed before the change and passes after it proves it (no "the change has no test" beside
 * it), and a kept reproduction test that passes is offered to include instead of asking for one.
 */
export function suggestionsWithEvidence(
  suggestions: string[],
  evidence: { fixed: string[]; reproductionPasses: boolean },
): string[] {
  if (!suggestions.includes(NO_TEST_SUGGESTION)) return suggestions;
  if (evidence.fixed.length) return suggestions.filter((x) => x !== NO_TEST_SUGGESTION);
  if (evidence.reproductionPasses)
    return suggestions.map((x) => (x === NO_TEST_SUGGESTION ? INCLUDE_REPRODUCTION_SUGGESTION : x));
  return suggestions;
}
export const SYNTAX_NOT_CHECKED = "Syntax not checked: no worker answered in time";
const countLines = (s: string) => (s === "" ? 0 : s.split("\n").length - (s.endsWith("\n") ? 1 : 0));

/** Deterministic checks of a proposed change, outside the model. Used for generated and hand-edited patches alike. */
export function assessChange(input: ValidateChangeInput): ChangeValidation {
  const existing = input.existingPaths ? new Set(input.existingPaths) : null;
  const errors: string[] = [];
  const warnings: string[] = [];
  const suggestions: string[] = [];
  const blocked: { path: string; reason: string }[] = [];
  let risk = 10;
  let installRisk = false;
  let added = 0;
  let removed = 0;
  let originalLines = 0;
  const seen = new Set<string>();

  for (const f of input.files) {
    if (seen.has(f.filename)) errors.push(`${f.filename} is changed more than once`);
    seen.add(f.filename);
    const denied = deniedChangeReason(f);
    if (denied) {
      blocked.push({ path: f.filename, reason: denied });
      errors.push(`${f.filename}: ${denied}`);
      continue;
    }
    const install = installRiskReason(f);
    if (install) {
      warnings.push(`${f.filename}: ${install}`);
      installRisk = true;
    }
    const risky = install ? null : riskyPathReason(f.filename);
    if (risky) {
      warnings.push(`${f.filename}: ${risky}`);
      risk += 20;
    }
    if (existing) {
      if (f.action === "create" && existing.has(f.filename))
        errors.push(`${f.filename} already exists but is marked as a new file`);
      if (f.action !== "create" && !existing.has(f.filename))
        errors.push(`${f.filename} does not exist in the repository`);
    }
    originalLines += countLines(f.originalContent);
    const counts = fileDiffCounts(f);
    added += counts.added;
    removed += counts.removed;
    if (f.action === "modify" && f.content === f.originalContent)
      warnings.push(`${f.filename} is listed as modified but is unchanged`);
    const bidi = f.action === "delete" ? 0 : addedBidiControls(f.content, f.originalContent);
    if (bidi > 0) {
      warnings.push(
        `${f.filename} adds ${bidi} invisible direction-changing character${bidi === 1 ? "" : "s"}: the code may run differently from how it reads (the diff shows them as U+…)`,
      );
      risk += 20;
    }
    if (f.action !== "delete") {
      for (const e of input.syntaxErrors?.[f.filename] ?? []) errors.push(`${f.filename}: ${e}`);
    }
  }

  for (const r of input.refusals ?? []) {
    blocked.push(r);
    errors.push(`${r.path}: ${r.reason}`);
  }

  const stats: ChangeStats = {
    filesChanged: input.files.length,
    linesAdded: added,
    linesRemoved: removed,
    percentageChanged: Math.min(100, Math.round(((added + removed) / Math.max(1, originalLines)) * 1000) / 10),
    newFiles: input.files.filter((f) => f.action === "create").length,
    deletedFiles: input.files.filter((f) => f.action === "delete").length,
  };
  if (input.syntaxErrors === null) warnings.push(SYNTAX_NOT_CHECKED);
  if (stats.deletedFiles > 0) {
    warnings.push(`${stats.deletedFiles} file(s) will be deleted`);
    risk += 15 * stats.deletedFiles;
  }
  if (removed >= LARGE_DELETION_LINES) {
    warnings.push(`Large deletion: ${removed} lines removed`);
    risk += 25;
  }
  if (stats.percentageChanged > 50 && originalLines > 20) {
    warnings.push(`${stats.percentageChanged}% of the touched code changes`);
    risk += 15;
  }
  if (stats.filesChanged > 5) {
    warnings.push(`${stats.filesChanged} files change at once`);
    risk += 10;
  }
  if (errors.length) risk += 20;

  const changed = input.files.map((f) => f.filename);
  const nearTests = input.testFilesNear?.(changed) ?? [];
  const touchesTests = changed.some(isTestPath);
  const testSuggestions = nearTests.length
    ? nearTests.slice(0, 5).map((t) => `Run and extend ${t}`)
    : [`Add a test that reproduces the issue next to ${changed[0] ?? "the changed code"}`];
  if (!touchesTests) suggestions.push(NO_TEST_SUGGESTION);
  if (stats.newFiles) suggestions.push("Check that new files follow the repository's layout and naming");
  if (warnings.length) suggestions.push("Review the flagged files carefully before approving");
  if (!suggestions.length) suggestions.push("Run the project's test suite before approving");

  const riskScore = blocked.length
    ? Math.max(90, Math.min(100, risk))
    : Math.min(100, installRisk ? Math.max(INSTALL_RISK_SCORE, risk) : risk);
  const riskLevel: RiskLevel = blocked.length ? "critical" : riskLevelFromScore(riskScore);
  const score = Math.max(0, Math.min(100, 100 - errors.length * 25 - warnings.length * 5));
  return {
    validation: { riskLevel, stats, warnings, suggestions },
    riskScore,
    testSuggestions,
    advancedValidation: { score, errors, warnings: warnings.map((message) => ({ message })) },
    blocked,
  };
}

export function isTestPath(p: string): boolean {
  return (
    /(^|\/)(tests?|__tests__|spec)\//i.test(p) ||
    /([._-](test|spec))\.[a-z]+$/i.test(p) ||
    /(^|\/)test_[^/]+\.py$/.test(p)
  );
}
