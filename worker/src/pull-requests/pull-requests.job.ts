import {
  changeSizeLimitsOf,
  FIXLOOP_BRANCH_PREFIX,
  PullRequestResult,
  solutionUnverifiedOf,
  standing,
} from "@fixloop/contract";
import type { PullRequestJob } from "@fixloop/contract";
import type { WorkerContext } from "../context";
import {
  INSTALLATION_PERMISSIONS,
  assertPolicyStillAllows,
  checkIssueOnGithub,
  githubForRepository,
  githubForUser,
  type GithubClient,
} from "@fixloop/runtime";
import { type BodyInput, DRAFT_REFUSED_NOTICE, prBody, prTitle } from "./pull-requests.body";
import { ensureBranch } from "./pull-requests.branch";
import { prErrors } from "./pull-requests.errors";
import { GUIDELINE_DIRS, loadGuidelines } from "./pull-requests.guidelines";
import { assertChangeAllowed } from "./pull-requests.limits";
import { assertAllowedAtJobTime } from "./pull-requests.standing";
import { claims, findOpenPullRequestForIssue, issues, solutions, type Claim } from "@fixloop/db";
import { findPullRequest, loadSolution, savePullRequest } from "./pull-requests.repository";
import { type ForkAgain, resolveTarget, type PullRequestTarget } from "./pull-requests.target";
import { forkOf } from "../fork/fork.github";
import { githubFieldsOf } from "../sync/repositories.store";
import { loadTreeEntries } from "./pull-requests.tree";

export interface OpenOptions {
  /** Stop once the branch is pushed (lets a test reproduce a crash between push and pull request). */
  stopAfterPush?: boolean;
  /** Ends the wait for a fork made again. */
  signal?: AbortSignal;
  /** The job's claim (see solutions.claimPullRequest): once another worker took the job, nothing more is recorded (ClaimLost). */
  claim?: Claim;
}

export function branchName(issueNumber: number, title: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  return `${FIXLOOP_BRANCH_PREFIX}${issueNumber}${slug ? `-${slug}` : ""}`;
}

/**
 * Opens the pull request for an approved solution. Safe to run any number of times: the branch
 * commit is recognised by its marker and the pull request by its head, so retries, a crash after
 * the push and double clicks all end with one branch and one pull request.
 */
export async function openPullRequest(
  ctx: WorkerContext,
  job: PullRequestJob,
  opts: OpenOptions = {},
): Promise<PullRequestResult> {
  const { solution, issue, reviewer } = await loadSolution(ctx.db, job.userId, job.solutionId);
  const stored = await findPullRequest(ctx.db, solution.id);
  if (stored) return { githubUrl: stored.html_url, prNumber: stored.pr_number, branch: stored.branch_name };
  if (solution.status !== "approved" && solution.status !== "pr_created") throw prErrors.notApproved(solution.status);

  const pullRequestOpen = !!(await findOpenPullRequestForIssue(ctx.db, issue.id, solution.id));
  assertAllowedAtJobTime("approve", standing(issue, { pullRequestOpen }));
  // The issue's branch is written only for the solution holding the issue (approvals take it one at a time).
  if (await solutions.approvedRival(ctx.db, issue.id, solution.id)) throw prErrors.issueTaken();

  const files = solution.files_changed;
  assertChangeAllowed(files, changeSizeLimitsOf(ctx.env));

  // An imported issue's pull request comes from the user's fork (the App is not installed there):
  // the user's grant. Otherwise the App's installation writes when the user has one on the
  // repository, with a token minted for this job, narrowed to it (the PR body names the reviewer).
  const { client: gh, login } = issue.is_imported
    ? await githubForUser(ctx, job.userId)
    : await githubForRepository(
        ctx,
        job.userId,
        { fullName: issue.repo_full_name, githubId: issue.repository_github_id },
        INSTALLATION_PERMISSIONS.pullRequest,
      );
  // The upstream's rules may have changed since the import: checked again before anything is written.
  if (issue.is_imported)
    await assertPolicyStillAllows(gh, { redis: ctx.redis, prefix: ctx.queues.prefix }, issue.repo_full_name);
  // A pull request that says it fixes an issue GitHub deleted or moved elsewhere is never opened.
  const gone = await checkIssueOnGithub(
    ctx,
    gh,
    { githubId: issue.repository_github_id, fullName: issue.repo_full_name },
    issue.issue_number,
  );
  if (gone) assertAllowedAtJobTime("approve", standing({ gone: gone.reason, moved_to: gone.movedTo }));
  // The user deleted their fork: forked again as on import, and remembered for the issue.
  const forkAgain: ForkAgain = async (gone, upstream) => {
    const { fork } = await forkOf(gh, login, upstream, opts.signal ?? new AbortController().signal);
    await claims.fenced(ctx.db, opts.claim, (trx) =>
      issues.replaceFork(trx, job.userId, { goneId: issue.fork_github_id ?? "0", fork: githubFieldsOf(fork) }),
    );
    ctx.logger.info({ userId: job.userId, gone, fork: fork.full_name }, "fork gone, forked again");
    return fork.full_name;
  };
  const target = await resolveTarget(gh, issue, solution.metadata.defaultBranch, forkAgain);
  const base = await gh.rest.git.getCommit({ ...target.head, commit_sha: target.baseSha });
  const entries = await loadTreeEntries(gh, target.head, base.data.tree.sha, [
    ...files.map((f) => f.filename),
    ...GUIDELINE_DIRS,
  ]);
  const guidelines = await loadGuidelines(gh, target.head, entries);

  const branch = branchName(issue.issue_number, issue.title);
  const marker = `Fixloop-Solution: ${solution.id}/r${solution.revision}`;
  const title = prTitle({ issueNumber: issue.issue_number, issueTitle: issue.title }, guidelines);
  const trailers = [
    marker,
    ...(guidelines.signOff && reviewer.email ? [`Signed-off-by: ${reviewer.username} <${reviewer.email}>`] : []),
  ];
  const pushed = await ensureBranch(gh, {
    head: target.head,
    base: target.base,
    branch,
    baseSha: target.baseSha,
    baseTreeSha: base.data.tree.sha,
    entries,
    generatedOn: solution.base_commit_sha,
    files,
    message: `${title}\n\n${trailers.join("\n")}\n`,
    marker,
  });
  if (opts.stopAfterPush) return null;

  const metadata = { ...solution.metadata, refinementCount: solution.refinement_count };
  const bodyInput: BodyInput = {
    issueNumber: issue.issue_number,
    issueTitle: issue.title,
    issueRepo: target.issueRepo,
    baseRepo: target.base.fullName,
    analysis: solution.analysis,
    proposedSolution: solution.proposed_solution,
    model: solution.ai_model,
    confidence: solution.confidence,
    files,
    metadata,
    reviewer: reviewer.username,
  };
  // Drafts unless the reviewer turned them off; always when the repository asks, or the solution is unverified.
  const draft =
    reviewer.draftPullRequests ||
    guidelines.draftRequired ||
    solutionUnverifiedOf(solution.metadata.unverified) !== null;
  const readyBody = () => prBody(bodyInput, guidelines, { draftRefused: true });
  const pr = await ensurePull(gh, target, branch, { title, body: prBody(bodyInput, guidelines), draft, readyBody });
  // Asked for a draft, got a regular one that says so (after a crash too, found by its notice).
  const draftRefused = draft && pr.draft !== true && (pr.body ?? "").startsWith(DRAFT_REFUSED_NOTICE);
  const body = draftRefused ? readyBody() : prBody(bodyInput, guidelines);
  const hasBreakingChanges =
    /breaking change/i.test(`${solution.proposed_solution}\n${solution.analysis}`) ||
    metadata.classification?.breaking === true;
  // Under the claim: after a lost lock, the worker that now holds the job records the pull request
  // (it finds the same one on GitHub).
  await savePullRequest(ctx.db, opts.claim, {
    userId: job.userId,
    solutionId: solution.id,
    issueId: issue.id,
    base: githubFieldsOf(target.base.github),
    head: githubFieldsOf(target.head.github),
    number: pr.number,
    title: pr.title,
    body,
    branch,
    baseBranch: target.base.branch,
    status: pr.merged_at ? "merged" : pr.state === "closed" ? "closed" : "open",
    htmlUrl: pr.html_url,
    pushedRevision: solution.revision,
    headSha: pushed.commitSha,
    metadata: {
      labels: pr.labels.flatMap((l) => l.name ?? []),
      hasBreakingChanges,
      generatedWithGuidelines: !!(guidelines.template || guidelines.contributing),
      draft: pr.draft === true,
      ...(draftRefused ? { draftRefused: true } : {}),
    },
  });
  return { githubUrl: pr.html_url, prNumber: pr.number, branch };
}

interface PullLike {
  number: number;
  draft?: boolean;
  body: string | null;
  title: string;
  html_url: string;
  state: string;
  merged_at: string | null;
  labels: { name?: string }[];
}

/** GitHub's 422 for a draft in a repository without drafts (private ones on GitHub Free and Pro), and only that one. */
function draftsUnsupported(err: unknown): boolean {
  const e = err as { status?: number; response?: { data?: unknown } };
  if (e.status !== 422) return false;
  const data = (e.response?.data ?? {}) as { message?: unknown; errors?: unknown };
  const messages = [
    data.message,
    ...(Array.isArray(data.errors) ? data.errors : []).map((x) => (x as { message?: unknown })?.message),
  ];
  return messages.some((m) => typeof m === "string" && /draft pull requests are not supported/i.test(m));
}

/**
 * The open pull request from our branch, created when there is none. A repository that refuses
 * drafts gets a regular pull request with `readyBody`, which says it is not ready to merge.
 */
async function ensurePull(
  gh: GithubClient,
  t: PullRequestTarget,
  branch: string,
  content: { title: string; body: string; draft: boolean; readyBody: () => string },
): Promise<PullLike & { labels: { name: string }[] }> {
  const head = `${t.head.owner}:${branch}`;
  const find = async () => {
    const open = await gh.rest.pulls.list({
      owner: t.base.owner,
      repo: t.base.repo,
      head,
      state: "open",
      per_page: 10,
    });
    return open.data[0];
  };
  const existing = await find();
  const norm = (p: PullLike) => ({ ...p, labels: p.labels.map((l) => ({ name: l.name ?? "" })).filter((l) => l.name) });
  if (existing) return norm(existing);
  const create = (c: { title: string; body: string; draft: boolean }) =>
    gh.rest.pulls.create({
      owner: t.base.owner,
      repo: t.base.repo,
      head,
      base: t.base.branch,
      ...c,
      maintainer_can_modify: true,
    });
  const { readyBody, ...asked } = content;
  try {
    const created = await create(asked).catch((err: unknown) => {
      if (!asked.draft || !draftsUnsupported(err)) throw err;
      return create({ ...asked, draft: false, body: readyBody() });
    });
    return norm(created.data);
  } catch (err) {
    // "A pull request already exists": a concurrent run won the race; use its pull request.
    if ((err as { status?: number }).status !== 422) throw err;
    const raced = await find();
    if (!raced) throw err;
    return norm(raced);
  }
}
