import type { FileChange } from "@fixloop/db";
import { domain } from "@fixloop/db";
import { lineDelta } from "@fixloop/worker/pull-requests/pull-requests.limits";
import { deniedPathReason, riskyPathReason } from "@fixloop/worker/pipeline/validation/path-policy";

export interface ChangeCheck {
  validation: { riskLevel: domain.RiskLevel; stats: Record<string, number>; warnings: string[]; suggestions: string[] };
  riskScore: number;
  testSuggestions: string[];
  advancedValidation: { score: number; errors: { message: string }[]; warnings: { message: string }[] };
  blocked: { path: string; reason: string }[];
}

/**
 * Re-runs the deterministic part of the validating step on edited contents.
 * Kept narrow so it can defer to the pipeline's validateChange once that is shared.
 */
export async function checkChange(files: FileChange[]): Promise<ChangeCheck> {
  let added = 0;
  let removed = 0;
  let originalLines = 0;
  const warnings: string[] = [];
  const blocked: { path: string; reason: string }[] = [];
  for (const f of files) {
    const denied = deniedPathReason(f.filename);
    if (denied) blocked.push({ path: f.filename, reason: denied });
    const risky = riskyPathReason(f.filename);
    if (risky) warnings.push(`${f.filename}: ${risky}`);
    originalLines += lineCount(f.originalContent);
    const d = lineDelta(f.action === "create" ? "" : f.originalContent, f.action === "delete" ? "" : f.content);
    added += d.added;
    removed += d.removed;
    if (f.action !== "delete" && /<<<<<<<|>>>>>>>/.test(f.content)) warnings.push(`${f.filename}: contains merge conflict markers`);
  }
  const pct = originalLines ? Math.min(100, Math.round(((added + removed) / originalLines) * 100)) : 100;
  let riskScore = Math.min(100, 10 + files.length * 5 + Math.round((added + removed) / 20) + warnings.length * 10);
  if (blocked.length) riskScore = 100;
  const riskLevel: domain.RiskLevel = blocked.length ? "critical" : domain.riskLevelFromScore(riskScore);
  return {
    validation: {
      riskLevel,
      stats: {
        filesChanged: files.length,
        linesAdded: added,
        linesRemoved: removed,
        percentageChanged: pct,
        newFiles: files.filter((f) => f.action === "create").length,
        deletedFiles: files.filter((f) => f.action === "delete").length,
      },
      warnings: [...blocked.map((b) => `${b.path}: ${b.reason}`), ...warnings],
      suggestions: added + removed > 200 ? ["Consider splitting this change into smaller pull requests"] : [],
    },
    riskScore,
    testSuggestions: files.filter((f) => f.action !== "delete").map((f) => `Cover the change in ${f.filename} with a test`),
    advancedValidation: {
      score: Math.max(0, 100 - blocked.length * 50 - warnings.length * 5),
      errors: blocked.map((b) => ({ message: `${b.path}: ${b.reason}` })),
      warnings: warnings.map((message) => ({ message })),
    },
    blocked,
  };
}

function lineCount(s: string): number {
  return s ? s.split("\n").length : 0;
}
