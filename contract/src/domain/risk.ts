export const RISK_LEVELS = ["low", "medium", "high", "critical"] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

/** Risk level from a 0-100 score when none is supplied: above 70 high, above 40 medium, else low. */
export function riskLevelFromScore(score: number): Exclude<RiskLevel, "critical"> {
  if (score > 70) return "high";
  if (score > 40) return "medium";
  return "low";
}

/** Score shown for each level. */
export const RISK_DISPLAY_SCORE: Record<RiskLevel, number> = { critical: 90, high: 70, medium: 40, low: 20 };

const LEVELS = new Set<unknown>(RISK_LEVELS);

/** A solution's risk level: the stored level, else derived from the stored score, else low. */
export function resolveRiskLevel(level: unknown, score: unknown): RiskLevel {
  if (LEVELS.has(level)) return level as RiskLevel;
  return riskLevelFromScore(typeof score === "number" && Number.isFinite(score) ? score : 0);
}

/** The one risk figure every page, step and pull request body shows for a level, e.g. "low (score 20/100)". */
export function riskSummary(level: RiskLevel): string {
  return `${level} (score ${RISK_DISPLAY_SCORE[level]}/100)`;
}

/** Step score colour bands: 90+ green, 70+ blue, 50+ orange, else red. */
export function scoreBand(score: number): "green" | "blue" | "orange" | "red" {
  if (score >= 90) return "green";
  if (score >= 70) return "blue";
  if (score >= 50) return "orange";
  return "red";
}

/** Confidence colour bands: 80+ green, 60+ yellow, else red. */
export function confidenceBand(confidence: number): "green" | "yellow" | "red" {
  if (confidence >= 80) return "green";
  if (confidence >= 60) return "yellow";
  return "red";
}

export const FALLBACK_CONFIDENCE = 85;
