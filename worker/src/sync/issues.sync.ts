import { type SyncJob } from "@fixloop/contract";
import { issues as issuesTable, repositories } from "@fixloop/db";
import type { WorkerContext } from "../context";
import {
  conditionalOnFirstPage,
  githubForUser,
  checkIssueOnGithub,
  JobRefusedError,
  type GithubClient,
} from "@fixloop/runtime";
import { asGithubJob } from "../github/github.jobs";
import { linkedPullsByIssue, type ListedPull } from "./linked-pulls";
import { upsertIssues, type GithubIssue } from "./issues.store";
import { upsertRepository } from "./repositories.store";
import { triggerLabeledIssues } from "./label-trigger.sync";

/**
 * Mirrors every issue (open and closed, pull requests skipped) of one repository, following Link
 * pagination to the end. Sorted by last update, so the first page's ETag changes whenever any
 * issue does: a 304 on it means nothing changed and costs no rate limit.
 */
export async function syncIssues(
  job: Extract<SyncJob, { kind: "issues" }>,
  ctx: WorkerContext,
  signal: AbortSignal,
): Promise<{ count: number; fetched: number; notModified: boolean }> {
  return asGithubJob("Repository", async () => {
    const gh = await githubForUser(ctx, job.userId);
    const { data: repo } = await gh.client.rest.repos.get({ owner: job.owner, repo: job.repo });
    // Only repositories the user owns or may push to (the ones the repository list shows); any other is imported by URL.
    const p = repo.permissions;
    if (!p?.admin && !p?.maintain && !p?.push) {
      throw new JobRefusedError({
        code: "github.not_your_repository",
        message: `${repo.full_name} is not one of your repositories; import its issues by URL instead`,
      });
    }
    const stored = await upsertRepository(ctx.db, job.userId, repo);
    const params = {
      owner: repo.owner.login,
      repo: repo.name,
      state: "all" as const,
      sort: "updated" as const,
      direction: "desc" as const,
      per_page: 100,
    };
    const issues: GithubIssue[] = [];
    const pulls: ListedPull[] = [];
    let etag: string | null = null;
    let notModified = false;
    try {
      // Conditional on the first page only: a later page of the same content (its issues pushed down
      // by newer ones) would answer 304 to the first page's ETag and stop the sync.
      const listForRepo = conditionalOnFirstPage(gh.client.rest.issues.listForRepo, stored.issues_etag);
      for await (const page of gh.client.paginate.iterator(listForRepo, params)) {
        if (signal.aborted) throw new Error("sync aborted");
        etag ??= page.headers.etag ?? null;
        for (const i of page.data as GithubIssue[]) {
          if (i.pull_request) pulls.push(i as ListedPull);
          else issues.push(i);
        }
      }
    } catch (err) {
      if ((err as { status?: number }).status !== 304) throw err;
      notModified = true;
    }
    if (!notModified) {
      await upsertIssues(ctx.db, job.userId, { id: stored.id, githubId: repo.id }, issues);
      const listed = new Set([...issues, ...pulls].map((i) => i.number));
      await confirmMissing(ctx, gh.client, job.userId, repo, listed, signal);
      // Open pull requests (forks' too) that reference an issue: shown before anyone solves it again.
      const linked = linkedPullsByIssue(
        repo.full_name,
        pulls,
        issues.map((i) => i.number),
      );
      await issuesTable.setLinkedPulls(ctx.db, job.userId, repo.id, linked, true);
      // With no webhook configured, this is how a label added on GitHub reaches the label trigger.
      await triggerLabeledIssues(ctx, job.userId, { githubId: repo.id, fullName: repo.full_name }, issues);
    }
    await repositories.markSynced(ctx.db, stored.id, notModified ? undefined : etag);
    const count = await issuesTable.count(ctx.db, job.userId, repo.id);
    ctx.logger.info(
      { userId: job.userId, repo: repo.full_name, fetched: issues.length, notModified, count },
      "issues synced",
    );
    return { count, fetched: issues.length, notModified };
  });
}

/** At most this many issues missing from one listing are asked for, one request each. */
const MISSING_CHECKS_MAX = 20;

/**
 * Issues the user has that a complete listing no longer shows. A listing alone proves nothing (an
 * issue updated while the pages were read moves ahead of them), so each is asked for: only GitHub's
 * 410 (deleted) or 301 to another repository (transferred) marks it gone. Past the cap, the next
 * complete listing asks for the rest.
 */
async function confirmMissing(
  ctx: WorkerContext,
  gh: GithubClient,
  userId: string,
  repo: { id: number; full_name: string },
  listed: Set<number>,
  signal: AbortSignal,
): Promise<void> {
  const missing = (await issuesTable.present(ctx.db, userId, repo.id)).filter((i) => !listed.has(i.issue_number));
  for (const { issue_number: n } of missing.slice(0, MISSING_CHECKS_MAX)) {
    if (signal.aborted) throw new Error("sync aborted");
    const gone = await checkIssueOnGithub(ctx, gh, { githubId: repo.id, fullName: repo.full_name }, n);
    if (gone) ctx.logger.info({ userId, repo: repo.full_name, issue: n, gone: gone.reason }, "issue gone from GitHub");
  }
  if (missing.length > MISSING_CHECKS_MAX)
    ctx.logger.info(
      { userId, repo: repo.full_name, left: missing.length - MISSING_CHECKS_MAX },
      "missing issues left to check",
    );
}
