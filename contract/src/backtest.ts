import { z } from "zod";

/** Past issues one backtest checks: at most this many, this many unless asked otherwise. */
export const BACKTEST_MAX_ISSUES = 20;
export const BACKTEST_DEFAULT_ISSUES = 10;
/** The rank a fixing file must reach to count as found "in the top 5". */
export const BACKTEST_TOP = 5;

export const BACKTEST_STATUSES = ["queued", "running", "done", "failed"] as const;
export type BacktestStatus = (typeof BACKTEST_STATUSES)[number];

/** What the user asks for: how many recently closed issues to check. */
export const StartBacktest = z.object({
  issues: z.number().int().min(1).max(BACKTEST_MAX_ISSUES).default(BACKTEST_DEFAULT_ISSUES),
});
export type StartBacktest = z.infer<typeof StartBacktest>;

/** One past issue checked: the merged pull request that fixed it and where localization ranked its files. */
export const BacktestIssue = z.object({
  issueNumber: z.number().int().positive(),
  title: z.string(),
  pullNumber: z.number().int().positive(),
  baseSha: z.string(),
  /** The source files the pull request changed (its test files are the pull request's own tests). */
  fixFiles: z.array(z.string()),
  testFiles: z.array(z.string()),
  /** Localization's top files at the base commit, best first. */
  ranked: z.array(z.string()),
  /** 1-based rank of the best-ranked fixing file, null when none is in `ranked`. */
  rank: z.number().int().positive().nullable(),
  /** Why this issue could not be checked (the base commit is gone, say); null when it was. */
  error: z.string().nullable().default(null),
});
export type BacktestIssue = z.infer<typeof BacktestIssue>;

/** The repository's trust card: the latest finished backtest, and the one running now if any. */
export const TrustCard = z.object({
  id: z.string(),
  status: z.enum(BACKTEST_STATUSES),
  requested: z.number().int(),
  /** Past issues found so far (the denominator once done) and how many of them were localized. */
  found: z.number().int(),
  checked: z.number().int(),
  foundAt1: z.number().int(),
  foundAt5: z.number().int(),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  issues: z.array(BacktestIssue),
});
export type TrustCard = z.infer<typeof TrustCard>;

/** The rank of the best fixing file among `ranked` (1-based), or null. */
export function fixRank(ranked: string[], fixFiles: string[]): number | null {
  const wanted = new Set(fixFiles);
  const at = ranked.findIndex((p) => wanted.has(p));
  return at < 0 ? null : at + 1;
}
