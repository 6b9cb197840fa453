import { z } from "zod";
import { githubLogin, githubRepoName } from "./github-names";

/** Queue names. One BullMQ queue each; workers may run any subset. */
export const QUEUES = {
  solve: "solve",
  sync: "sync",
  fork: "fork",
  pullRequest: "pull-request",
  syntaxCheck: "syntax-check",
  testsRerun: "tests-rerun",
  backtest: "backtest",
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

const Uuid = z.string().uuid();
const Owner = githubLogin();
const RepoName = githubRepoName();

/** One job per solve or refine run; everything else the processor reads from Postgres. */
export const SolveJob = z.object({ runId: Uuid });
export type SolveJob = z.infer<typeof SolveJob>;

export const SyncJob = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("repositories"), userId: Uuid }),
  z.object({ kind: z.literal("issues"), userId: Uuid, owner: Owner, repo: RepoName }),
  z.object({ kind: z.literal("pull-requests"), userId: Uuid }),
  /** One tick of the timed poll of open pull requests in repositories without a recent webhook (all users). */
  z.object({ kind: z.literal("poll-pull-requests") }),
  /** The catch-up read of the GitHub App's installations (on start): events missed while Fixloop was down. */
  z.object({ kind: z.literal("installations") }),
  /** A failing GitHub Actions check run a webhook reported: read it and its job's log tail onto the timeline. */
  z.object({ kind: z.literal("check-log"), pullRequestId: Uuid, checkRunId: z.number().int().positive() }),
]);
export type SyncJob = z.infer<typeof SyncJob>;

export const ForkJob = z.object({
  userId: Uuid,
  owner: Owner,
  repo: RepoName,
  issueNumber: z.number().int().positive(),
  /** The user acknowledged the warnings the contribution checks raised. */
  acknowledgeWarnings: z.boolean().default(false),
});
export type ForkJob = z.infer<typeof ForkJob>;

/** What a finished fork job returns to the API. */
export const ImportResult = z.object({
  fork: z.object({ isNew: z.boolean(), fullName: z.string() }),
  issueId: z.string(),
  /**
   * The issue row answered existed before this import: the user's earlier import of it (found by
   * name, or by GitHub id after a rename). A result stored before this field answers false, as then.
   */
  alreadyImported: z.boolean().default(false),
});
export type ImportResult = z.infer<typeof ImportResult>;

/**
 * Opens the pull request of an approved solution; with `revision`, pushes that revision of a
 * solution whose pull request is open as a new commit on the same branch (addressing a review).
 */
export const PullRequestJob = z.object({
  userId: Uuid,
  solutionId: Uuid,
  revision: z.number().int().positive().optional(),
});
export type PullRequestJob = z.infer<typeof PullRequestJob>;

/** The files of a hand-edited solution, parsed by the worker (the API process loads no parsers). */
export const SyntaxCheckJob = z.object({
  files: z.array(z.object({ filename: z.string().min(1).max(1000), content: z.string(), originalContent: z.string() })),
});
export type SyntaxCheckJob = z.infer<typeof SyntaxCheckJob>;

/** What a finished syntax-check job returns: parse errors per file, only for files that have some. */
export const SyntaxCheckResult = z.object({ syntaxErrors: z.record(z.string(), z.array(z.string())) });
export type SyntaxCheckResult = z.infer<typeof SyntaxCheckResult>;

/** What a finished solve job returns: the run's solution, or the status it ended with otherwise. */
export const SolveResult = z.union([z.object({ solutionId: z.string() }), z.object({ status: z.string() })]);
export type SolveResult = z.infer<typeof SolveResult>;

const Count = z.number().int().nonnegative();
/** What a finished sync job returns, by kind: how many the user now has, and what the sync found. */
export const SyncResult = z.union([
  z.object({ count: Count, fetched: Count, notModified: z.boolean() }),
  // skipped: pull requests GitHub refused to show (a user's sync; the timed poll skips none).
  z.object({ count: Count, changed: Count, notModified: Count, skipped: Count.optional() }),
  z.object({ count: Count }),
]);
export type SyncResult = z.infer<typeof SyncResult>;

/** What a finished pull-request job returns (null: stopped after the push, as a test asks). */
export const PullRequestResult = z
  .object({
    githubUrl: z.string(),
    prNumber: z.number().int(),
    branch: z.string(),
    /** A pushed revision: the new commit and the review threads answered. */
    commitSha: z.string().optional(),
    replies: z.number().int().nonnegative().optional(),
  })
  .nullable();
export type PullRequestResult = z.infer<typeof PullRequestResult>;

/** Runs a solution's tests again on its current files (after a manual edit); the evidence is replaced if the files did not change meanwhile. */
export const TestsRerunJob = z.object({ userId: Uuid, solutionId: Uuid, revision: z.number().int().min(0) });
export type TestsRerunJob = z.infer<typeof TestsRerunJob>;
/** What a finished tests re-run returns: whether its evidence replaced the solution's stale evidence. */
export const TestsRerunResult = z.object({ replaced: z.boolean() });
export type TestsRerunResult = z.infer<typeof TestsRerunResult>;

/** Redis stream of a tests re-run's live `tests` events (field `data`), closed by an entry with field `end`. */
export function testsRerunKey(prefix: string, solutionId: string, revision: number): string {
  return `${prefix}:tests-rerun:${solutionId}:${revision}`;
}

/** Localizes a repository's recently fixed issues at their pull requests' base commits (the backtest row says which). */
export const BacktestJob = z.object({ backtestId: Uuid });
export type BacktestJob = z.infer<typeof BacktestJob>;
/** What a finished backtest returns: issues checked and how many had a fixing file ranked first / in the top 5. */
export const BacktestResult = z.object({ checked: Count, foundAt1: Count, foundAt5: Count });
export type BacktestResult = z.infer<typeof BacktestResult>;

export const JOB_SCHEMAS = {
  [QUEUES.solve]: SolveJob,
  [QUEUES.sync]: SyncJob,
  [QUEUES.fork]: ForkJob,
  [QUEUES.pullRequest]: PullRequestJob,
  [QUEUES.syntaxCheck]: SyntaxCheckJob,
  [QUEUES.testsRerun]: TestsRerunJob,
  [QUEUES.backtest]: BacktestJob,
} as const;

export type JobPayload<Q extends QueueName> = z.infer<(typeof JOB_SCHEMAS)[Q]>;

/** What each queue's job returns when it finishes (BullMQ's return value), checked where it is read. */
export const JOB_RESULT_SCHEMAS = {
  [QUEUES.solve]: SolveResult,
  [QUEUES.sync]: SyncResult,
  [QUEUES.fork]: ImportResult,
  [QUEUES.pullRequest]: PullRequestResult,
  [QUEUES.syntaxCheck]: SyntaxCheckResult,
  [QUEUES.testsRerun]: TestsRerunResult,
  [QUEUES.backtest]: BacktestResult,
} as const;

export type JobResult<Q extends QueueName> = z.infer<(typeof JOB_RESULT_SCHEMAS)[Q]>;

/** The job scheduler whose ticks poll open pull requests (one job per tick across all workers). */
export const PR_POLL_SCHEDULER = "poll-pull-requests";

/** Deterministic job ids make enqueueing idempotent (BullMQ ignores a second add with the same id). */
export const jobIds = {
  solve: (runId: string) => `run-${runId}`,
  fork: (j: ForkJob) => `fork-${j.userId}-${j.owner}-${j.repo}-${j.issueNumber}`,
  pullRequest: (solutionId: string) => `pr-${solutionId}`,
  pushRevision: (solutionId: string, revision: number) => `pr-${solutionId}-r${revision}`,
  testsRerun: (solutionId: string, revision: number) => `tests-${solutionId}-r${revision}`,
  backtest: (backtestId: string) => `backtest-${backtestId}`,
};
