import type { GitStore, TreeChange } from "./git-store";
import type { SeedRepo } from "./seed/seed.types";
import type { IssueRecord, PullFields } from "./state";

const blob = (path: string, content: string): TreeChange => ({ path, mode: "100644", type: "blob", content });

/**
 * Writes each closed pull request of the repository's past as two commits off the default
 * branch's head: its base (the files as they were before it) and its head (the default branch's
 * versions), kept under refs/pull/N/head as GitHub keeps them. Answers the pull-request records,
 * numbered from `firstNumber`.
 */
export async function seedClosedPulls(
  git: GitStore,
  seed: SeedRepo,
  base: { head: string; tree: string },
  author: { name: string; email: string },
  ids: { repoId: number; firstNumber: number; nextId: () => number },
): Promise<IssueRecord[]> {
  const dir = git.dir(seed.owner, seed.name);
  const out: IssueRecord[] = [];
  for (const [index, pull] of (seed.closedPulls ?? []).entries()) {
    const number = ids.firstNumber + index;
    const before: TreeChange[] = Object.entries(pull.before).map(([path, content]) =>
      content === null ? { path, mode: "100644", type: "blob", sha: null } : blob(path, content),
    );
    const baseTree = await git.writeTree(dir, base.tree, before);
    const who = { ...author, date: pull.createdAt };
    const baseSha = await git.commitTree(dir, {
      tree: baseTree,
      parents: [base.head],
      message: `Before #${number}\n`,
      author: who,
      committer: who,
    });
    const headSha = await git.commitTree(dir, {
      tree: base.tree,
      parents: [baseSha],
      message: `${pull.title}\n`,
      author: who,
      committer: who,
    });
    await git.updateRef(dir, `refs/pull/${number}/head`, headSha);
    const fields: PullFields = {
      headRepoId: ids.repoId,
      headRef: pull.branch,
      headSha,
      baseRef: seed.defaultBranch,
      baseSha,
      draft: false,
      maintainerCanModify: false,
      merged: pull.merged,
      mergedAt: pull.merged ? pull.closedAt : null,
      mergedBy: pull.merged ? seed.owner : null,
      mergeCommitSha: pull.merged ? headSha : null,
      past: true,
    };
    out.push({
      id: ids.nextId(),
      pullId: ids.nextId(),
      repoId: ids.repoId,
      number,
      title: pull.title,
      body: pull.body,
      user: pull.user,
      labels: [],
      assignees: [],
      state: "closed",
      stateReason: null,
      locked: false,
      comments: 0,
      createdAt: pull.createdAt,
      updatedAt: pull.closedAt,
      closedAt: pull.closedAt,
      closedBy: seed.owner,
      pull: fields,
    });
  }
  return out;
}
