import { backtests, ClaimLost } from "@fixloop/db";
import { fixRank, type BacktestIssue, type BacktestResult } from "@fixloop/contract";
import { githubForUser, toGithubError } from "@fixloop/runtime";
import type { WorkerContext } from "../context";
import { recentlyFixedIssues } from "./backtest.github";
import { localizeAt, type LocalizedAt } from "./backtest.localize";
import { solvePast } from "./backtest.solve";
import { testsConfig } from "../tests-run/tests.config";

/** Why a backtest could not run, said to the user on the card. */
export class BacktestError extends Error {}

/** The backtest was ended meanwhile (it did not finish in time): it stops where it is, spending nothing more. */
const ended = () => new BacktestError("The backtest was ended before it finished");

/** A failure in words a user can act on: GitHub's mapped to what to do, anything else as raised. */
export function failureText(err: unknown): string {
  if (err && typeof err === "object" && "status" in err) return toGithubError(err, "Repository").message;
  return err instanceof Error ? err.message : String(err);
}

/**
 * Backtests one repository: finds its recently fixed issues, localizes each at its fix's base
 * commit and counts where the fixing files ranked. Progress is stored after every issue;
 * `onProgress` hears it too (the job's progress).
 */
export async function runBacktest(
  ctx: WorkerContext,
  backtestId: string,
  signal: AbortSignal,
  onProgress: (p: backtests.BacktestProgress) => Promise<void>,
  /** This attempt's claim: every write of the backtest and of its solve runs carries it. */
  claim: string,
): Promise<BacktestResult> {
  const row = await backtests.find(ctx.db, backtestId);
  if (!row) throw new BacktestError("The backtest no longer exists");
  if (!(await backtests.begin(ctx.db, backtestId, claim))) throw ended();
  const gh = (await githubForUser(ctx, row.user_id)).client;
  const fixed = await recentlyFixedIssues(gh, row.owner, row.name, row.requested, signal);
  const p: backtests.BacktestProgress = { found: fixed.length, checked: 0, foundAt1: 0, foundAt5: 0, issues: [] };
  if (!(await backtests.progress(ctx.db, backtestId, p, claim))) throw ended();
  await onProgress(p);
  for (const f of fixed) {
    signal.throwIfAborted();
    const entry: BacktestIssue = {
      issueNumber: f.issueNumber,
      title: f.title,
      pullNumber: f.pullNumber,
      baseSha: f.baseSha,
      fixFiles: f.fixFiles,
      testFiles: f.testFiles,
      ranked: [],
      rank: null,
      error: null,
      solve: null,
    };
    let located: LocalizedAt | null = null;
    try {
      located = await localizeAt({
        gh,
        redis: ctx.redis,
        prefix: ctx.queues.prefix,
        owner: row.owner,
        repo: row.name,
        sha: f.baseSha,
        title: f.title,
        body: f.body,
        maxFiles: ctx.env.LOCALIZE_MAX_FILES,
        signal,
        local: { cache: testsConfig(ctx.env).cache, maxBytes: testsConfig(ctx.env).maxRepoBytes },
      });
      entry.ranked = located.ranked;
      entry.rank = fixRank(entry.ranked, f.fixFiles);
      p.checked += 1;
      if (entry.rank === 1) p.foundAt1 += 1;
      if (entry.rank !== null) p.foundAt5 += 1;
    } catch (err) {
      if (signal.aborted) throw err;
      entry.error = `Could not read the repository at ${f.baseSha.slice(0, 7)}: ${failureText(err)}`;
    }
    // On request, a full solve of the issue, checked against the pull request's own tests.
    if (row.solve)
      entry.solve = located
        ? await solvePast(ctx, gh, row, f, located, signal, claim).catch((err: unknown) => {
            if (signal.aborted || err instanceof ClaimLost) throw err;
            return {
              runId: null,
              verified: false,
              reason: "could_not_run" as const,
              detail: `The solve could not be checked: ${failureText(err)}`,
              costUsd: 0,
              networkNotGranted: false,
            };
          })
        : {
            runId: null,
            verified: false,
            reason: "not_solved",
            detail: "Not solved: the base commit could not be read",
            costUsd: 0,
            networkNotGranted: false,
          };
    p.issues.push(entry);
    if (!(await backtests.progress(ctx.db, backtestId, p, claim))) throw ended();
    await onProgress(p);
  }
  return { checked: p.checked, foundAt1: p.foundAt1, foundAt5: p.foundAt5 };
}
