import {
  changeSizeLimitsOf,
  type FileChange,
  type PullRequestJob,
  type PullRequestResult,
  standing,
} from "@fixloop/contract";
import { claims, pullRequests, reviewAddressing, type Claim } from "@fixloop/db";
import { githubForRepository, githubForUser, INSTALLATION_PERMISSIONS, type GithubClient } from "@fixloop/runtime";
import type { WorkerContext } from "../context";
import { prErrors } from "./pull-requests.errors";
import { updateEvidence } from "./pull-requests.evidence";
import { assertChangeAllowed, assertNoDirectoryReplaced, assertNoSymlinks } from "./pull-requests.limits";
import { assertAllowedAtJobTime } from "./pull-requests.standing";
import { findPullRequest, loadSolution } from "./pull-requests.repository";
import { replyOnThreads } from "./pull-requests.replies";
import { loadTreeEntries } from "./pull-requests.tree";
import { currentRepoById } from "./pull-requests.target";

const status = (err: unknown) => (err as { status?: number }).status;

/** What the branch must hold for each path the new revision or the last pushed one touched (null: absent). */
export function planPaths(files: FileChange[], previous: FileChange[]): Map<string, string | null> {
  const want = new Map<string, string | null>();
  for (const f of previous) want.set(f.filename, f.action === "create" ? null : f.originalContent);
  for (const f of files) want.set(f.filename, f.action === "delete" ? null : f.content);
  return want;
}

async function tipOf(gh: GithubClient, head: { owner: string; repo: string }, branch: string) {
  try {
    return (await gh.rest.git.getRef({ ...head, ref: `heads/${branch}` })).data.object.sha;
  } catch (err) {
    if (status(err) === 404) throw prErrors.branchMoved(`The branch ${branch} no longer exists on GitHub`);
    throw err;
  }
}

/**
 * Pushes a new revision of a solution whose pull request is open as one new commit on the same
 * branch: its parent is the branch head, the ref moves without force. When someone else pushed
 * after Fixloop, the commit builds on their head if none of the revision's files changed there;
 * otherwise nothing is written and the job is refused with the files that changed. Then each
 * review thread the revision addresses gets a reply and the body's evidence section is updated.
 * Safe to retry: a branch already carrying this revision's commit (by its marker) is kept. Every
 * record is written under the job's `claim`: once another worker took the job, ClaimLost.
 */
export async function pushRevision(ctx: WorkerContext, job: PullRequestJob, claim: Claim): Promise<PullRequestResult> {
  const { solution, issue, reviewer } = await loadSolution(ctx.db, job.userId, job.solutionId);
  const pr = await findPullRequest(ctx.db, solution.id);
  if (!pr) throw prErrors.notOpen("not opened yet");
  if (pr.status !== "open") throw prErrors.notOpen(pr.status);
  assertAllowedAtJobTime("push", standing(issue));
  if (solution.revision !== job.revision)
    throw prErrors.conflict(
      `the solution is at revision ${solution.revision}, not the approved revision ${job.revision}; review it and push again`,
    );
  const files = solution.files_changed;
  assertChangeAllowed(files, changeSizeLimitsOf(ctx.env));
  // As at opening: an imported issue's branch is on the user's fork (the user's grant); otherwise the
  // App's bot pushes and replies when installed on the repository, with a token minted for this job.
  const { client: gh } = issue.is_imported
    ? await githubForUser(ctx, job.userId)
    : await githubForRepository(
        ctx,
        job.userId,
        { fullName: pr.repo_full_name, githubId: pr.base_github_id },
        INSTALLATION_PERMISSIONS.pullRequest,
      );
  const branch = pr.branch_name;
  // The names stored may be stale (renamed or transferred since, no webhook heard): the repositories
  // are read by their ids, and writes go to the names GitHub gives them now.
  const head = await currentRepoById(gh, pr.head_github_id);
  if (!head)
    throw prErrors.branchMoved(`The branch ${branch} no longer exists on GitHub: ${pr.head_repo_full_name} is gone`);
  const base = pr.base_github_id === pr.head_github_id ? head : await currentRepoById(gh, pr.base_github_id);
  if (!base) throw prErrors.notOpen(`gone from GitHub with ${pr.repo_full_name}`);
  // The stored names follow too, so the pull request's page links where it lives now.
  const named = (r: { owner: string; repo: string }) => `${r.owner}/${r.repo}`;
  const stored = await claims.fenced(ctx.db, claim, async (trx) => {
    await pullRequests.followRepositories(trx, [
      { githubId: Number(pr.base_github_id), fullName: named(base) },
      { githubId: Number(pr.head_github_id), fullName: named(head) },
    ]);
    return (await pullRequests.findBySolution(trx, solution.id)) ?? pr;
  });
  const marker = `Fixloop-Solution: ${solution.id}/r${solution.revision}`;
  const tip = await tipOf(gh, head, branch);
  const tipCommit = await gh.rest.git.getCommit({ ...head, commit_sha: tip });
  let commitSha = tip;
  if (!tipCommit.data.message.includes(marker)) {
    // A pull request opened before pushes were recorded: the branch tip is ours when it carries our marker.
    const legacy = new RegExp(`Fixloop-Solution: ${solution.id}/r(\\d+)`).exec(tipCommit.data.message);
    const lastSha = pr.head_sha ?? (legacy ? tip : null);
    const lastRevision = pr.pushed_revision ?? (legacy ? Number(legacy[1]) : null);
    const previous =
      lastRevision !== null ? ((await reviewAddressing.revisionFiles(ctx.db, solution.id, lastRevision)) ?? []) : [];
    const want = planPaths(files, previous);
    const paths = [...want.keys()];
    const entries = await loadTreeEntries(gh, head, tipCommit.data.tree.sha, paths);
    if (lastSha !== tip) {
      // Someone else pushed: build on their commit only when it left every file of ours as we pushed it.
      const ours = lastSha
        ? await gh.rest.git.getCommit({ ...head, commit_sha: lastSha }).catch((err: unknown) => {
            if (status(err) === 404 || status(err) === 422) return null;
            throw err;
          })
        : null;
      if (!ours)
        throw prErrors.branchMoved(
          `${branch} was rewritten and Fixloop cannot find the commit it pushed last, so the new revision was not pushed`,
        );
      const mine = await loadTreeEntries(gh, head, ours.data.tree.sha, paths);
      const changed = paths.filter((p) => (entries.get(p)?.sha ?? null) !== (mine.get(p)?.sha ?? null));
      if (changed.length)
        throw prErrors.branchMoved(
          `${branch} moved to ${tip.slice(0, 7)} by a commit Fixloop did not make, and it changed ${changed.join(", ")}; ` +
            `the new revision does not apply to it cleanly, so nothing was pushed. Update or revert that change on the branch, then address the review again`,
        );
    }
    assertNoSymlinks(files, entries);
    assertNoDirectoryReplaced(files, entries);
    const tree = [];
    for (const [path, content] of want) {
      const e = entries.get(path);
      const mode = (e?.type === "blob" && e.mode === "100755" ? "100755" : "100644") as "100644" | "100755";
      if (content === null) {
        if (e) tree.push({ path, mode, type: "blob" as const, sha: null });
      } else tree.push({ path, mode, type: "blob" as const, content });
    }
    const newTree = await gh.rest.git.createTree({ ...head, base_tree: tipCommit.data.tree.sha, tree });
    const commit = await gh.rest.git.createCommit({
      ...head,
      message: `Address review comments on #${pr.pr_number}\n\nRevision ${solution.revision} of the approved solution.\n\n${marker}\n`,
      tree: newTree.data.sha,
      parents: [tip],
    });
    try {
      // Never forced: a push that raced ours leaves the ref as it is and the job says why.
      await gh.rest.git.updateRef({ ...head, ref: `heads/${branch}`, sha: commit.data.sha, force: false });
    } catch (err) {
      if (status(err) !== 422) throw err;
      throw prErrors.branchMoved(`${branch} moved while the new revision was being pushed; nothing was pushed`);
    }
    commitSha = commit.data.sha;
  }
  await reviewAddressing.recordPush(ctx.db, claim, pr.id, { revision: solution.revision, headSha: commitSha });
  const commitUrl = `${stored.html_url}/commits/${commitSha}`;
  const replies = await replyOnThreads(
    ctx.db,
    claim,
    gh,
    { ...base, pullRequestId: pr.id, number: pr.pr_number },
    {
      commitSha,
      commitUrl,
      revision: solution.revision,
      solutionId: solution.id,
    },
  );

  const current = await gh.rest.pulls.get({ ...base, pull_number: pr.pr_number });
  const note = `- Revision ${solution.revision} pushed as [${commitSha.slice(0, 7)}](${commitUrl})${replies ? `, addressing ${replies} review comment${replies === 1 ? "" : "s"}` : ""}`;
  const body = updateEvidence(
    current.data.body ?? "",
    {
      issueNumber: issue.issue_number,
      issueTitle: issue.title,
      issueRepo: issue.upstream_full_name ?? issue.repo_full_name,
      baseRepo: pr.repo_full_name,
      analysis: solution.analysis,
      proposedSolution: solution.proposed_solution,
      model: solution.ai_model,
      confidence: solution.confidence,
      files,
      metadata: { ...solution.metadata, refinementCount: solution.refinement_count },
      reviewer: reviewer.username,
    },
    note,
  );
  await gh.rest.pulls.update({ ...base, pull_number: pr.pr_number, body });
  await reviewAddressing.recordPush(ctx.db, claim, pr.id, { revision: solution.revision, headSha: commitSha, body });
  return { githubUrl: stored.html_url, prNumber: pr.pr_number, branch, commitSha, replies };
}
