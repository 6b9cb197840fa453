import type { FileChange } from "@fixloop/contract";
import type { GithubClient } from "@fixloop/runtime";
import { prErrors } from "./pull-requests.errors";
import { assertNoDirectoryReplaced, assertNoSymlinks, type TreeEntryLike } from "./pull-requests.limits";
import { readBlob, type RepoRef } from "./pull-requests.tree";

export interface BranchPlan {
  head: RepoRef;
  /** Repository pull requests from the branch are opened on (the head itself, or the upstream of a fork). */
  base: RepoRef;
  branch: string;
  /** Head of the default branch the commit goes on. */
  baseSha: string;
  /** Tree of `baseSha` and its entries for the changed paths (see loadTreeEntries). */
  baseTreeSha: string;
  entries: Map<string, TreeEntryLike>;
  /** The commit the solution was generated against, when known. */
  generatedOn: string | null;
  files: FileChange[];
  message: string;
  /** Identifies our commit on a branch, so a retried job recognises its own earlier push. */
  marker: string;
}

const isMissing = (err: unknown) => (err as { status?: number }).status === 404;

async function findBranchTip(gh: GithubClient, r: RepoRef, branch: string): Promise<string | null> {
  try {
    const ref = await gh.rest.git.getRef({ ...r, ref: `heads/${branch}` });
    return ref.data.object.sha;
  } catch (err) {
    if (isMissing(err)) return null;
    throw err;
  }
}

/**
 * Makes `branch` point at one commit holding exactly the solution's files on top of `baseSha`.
 * A branch already carrying our commit is kept as is (retry, crash after push, double click).
 * Every check runs before the first write, so a refused change leaves nothing behind.
 */
export async function ensureBranch(
  gh: GithubClient,
  plan: BranchPlan,
): Promise<{ commitSha: string; reused: boolean }> {
  const { head, branch } = plan;
  const tip = await findBranchTip(gh, head, branch);
  if (tip) {
    const commit = await gh.rest.git.getCommit({ ...head, commit_sha: tip });
    if (commit.data.message.includes(plan.marker)) return { commitSha: tip, reused: true };
  }

  // A branch with someone else's commit and an open pull request is never force-pushed over.
  if (tip && (await hasOpenPull(gh, plan))) throw prErrors.pullRequestOpen();

  const { entries } = plan;
  assertNoSymlinks(plan.files, entries);
  assertNoDirectoryReplaced(plan.files, entries);
  await assertApplies(gh, plan, entries);

  const tree = [];
  for (const f of plan.files) {
    const existing = entries.get(f.filename);
    const mode = (existing?.type === "blob" && existing.mode === "100755" ? "100755" : "100644") as "100644" | "100755";
    if (f.action === "delete") {
      tree.push({ path: f.filename, mode, type: "blob" as const, sha: null });
      continue;
    }
    // Inline: the tree request creates the blob. Contents are text (binary is refused before), and
    // one write per file fewer keeps a pull request within the credential's write burst.
    tree.push({ path: f.filename, mode, type: "blob" as const, content: f.content });
  }
  const newTree = await gh.rest.git.createTree({ ...head, base_tree: plan.baseTreeSha, tree });
  const commit = await gh.rest.git.createCommit({
    ...head,
    message: plan.message,
    tree: newTree.data.sha,
    parents: [plan.baseSha],
  });
  const sha = commit.data.sha;
  if (tip) {
    // Our namespace (fixloop/...) but not our commit: an abandoned earlier attempt; replace it.
    await gh.rest.git.updateRef({ ...head, ref: `heads/${branch}`, sha, force: true });
    return { commitSha: sha, reused: false };
  }
  try {
    await gh.rest.git.createRef({ ...head, ref: `refs/heads/${branch}`, sha });
  } catch (err) {
    if ((err as { status?: number }).status !== 422) throw err;
    // A concurrent run created the branch first; keep its commit when it is ours.
    const raced = await findBranchTip(gh, head, branch);
    if (!raced) throw err;
    const c = await gh.rest.git.getCommit({ ...head, commit_sha: raced });
    if (c.data.message.includes(plan.marker)) return { commitSha: raced, reused: true };
    if (await hasOpenPull(gh, plan)) throw prErrors.pullRequestOpen();
    await gh.rest.git.updateRef({ ...head, ref: `heads/${branch}`, sha, force: true });
  }
  return { commitSha: sha, reused: false };
}

async function hasOpenPull(gh: GithubClient, plan: BranchPlan): Promise<boolean> {
  const open = await gh.rest.pulls.list({
    owner: plan.base.owner,
    repo: plan.base.repo,
    head: `${plan.head.owner}:${plan.branch}`,
    state: "open",
    per_page: 1,
  });
  return open.data.length > 0;
}

/** When the base moved since generation, each file must still read as it did then. */
async function assertApplies(gh: GithubClient, plan: BranchPlan, entries: Map<string, TreeEntryLike>): Promise<void> {
  const moved = plan.generatedOn !== plan.baseSha;
  for (const f of plan.files) {
    const entry = entries.get(f.filename);
    const blob = entry?.type === "blob" && entry.sha ? entry.sha : null;
    if (f.action === "create") {
      if (!blob) continue;
      const now = await readBlob(gh, plan.head, blob);
      if (now !== f.content) throw prErrors.conflict(`${f.filename} already exists on the default branch`);
      continue;
    }
    if (!blob) throw prErrors.conflict(`${f.filename} no longer exists on the default branch`);
    if (!moved) continue;
    const now = await readBlob(gh, plan.head, blob);
    if (now !== f.originalContent)
      throw prErrors.conflict(`${f.filename} changed on the default branch since the solution was generated`);
  }
}
