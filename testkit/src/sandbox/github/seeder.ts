import type { GitStore, TreeChange } from "./git-store";
import { POLICY_REPOS, SEED_REPOS, SEED_USERS } from "./seed";
import { DEFAULT_LABELS, type SeedRepo } from "./seed/seed.types";
import type { IssueRecord, PullFields, RepoRecord, StateStore } from "./state";
import { seedClosedPulls } from "./seeder.closed-pulls";

async function seedGit(
  git: GitStore,
  seed: SeedRepo,
  author: { name: string; email: string },
): Promise<{ head: string; tree: string }> {
  const dir = git.dir(seed.owner, seed.name);
  await git.initBare(dir, seed.defaultBranch);
  let tree: string | null = null;
  let head: string | null = null;
  for (const commit of seed.commits) {
    const changes: TreeChange[] = Object.entries(commit.files).map(([path, content]) =>
      content === null
        ? { path, mode: "100644", type: "blob", sha: null }
        : { path, mode: seed.executables?.includes(path) ? "100755" : "100644", type: "blob", content },
    );
    tree = await git.writeTree(dir, tree, changes);
    const who = { ...author, date: commit.date };
    head = await git.commitTree(dir, {
      tree,
      parents: head ? [head] : [],
      message: `${commit.message}\n`,
      author: who,
      committer: who,
    });
  }
  if (!head || !tree) throw new Error(`seed ${seed.owner}/${seed.name} has no commits`);
  await git.updateRef(dir, `refs/heads/${seed.defaultBranch}`, head);
  return { head, tree };
}

/** Commits each extra seeded branch on top of the default branch. */
async function seedBranches(
  git: GitStore,
  seed: SeedRepo,
  base: { head: string; tree: string },
  author: { name: string; email: string },
) {
  const dir = git.dir(seed.owner, seed.name);
  for (const branch of seed.branches ?? []) {
    const changes: TreeChange[] = Object.entries(branch.files).map(([path, content]) => ({
      path,
      mode: "100644",
      type: "blob",
      content,
    }));
    const tree = await git.writeTree(dir, base.tree, changes);
    const who = { ...author, date: branch.date };
    const message = `${branch.message}\n`;
    const head = await git.commitTree(dir, { tree, parents: [base.head], message, author: who, committer: who });
    await git.updateRef(dir, `refs/heads/${branch.name}`, head);
  }
}

/** Commits each seeded pull request's branch on top of the default branch; answers the pull fields. */
async function seedPullBranches(
  git: GitStore,
  seed: SeedRepo,
  base: { head: string; tree: string },
  author: { name: string; email: string },
): Promise<PullFields[]> {
  const dir = git.dir(seed.owner, seed.name);
  const out: PullFields[] = [];
  for (const [index, pull] of (seed.pulls ?? []).entries()) {
    const changes: TreeChange[] = Object.entries(pull.files).map(([path, content]) => ({
      path,
      mode: "100644",
      type: "blob",
      content,
    }));
    const tree = await git.writeTree(dir, base.tree, changes);
    const who = { ...author, date: pull.createdAt };
    const headSha = await git.commitTree(dir, {
      tree,
      parents: [base.head],
      message: `${pull.title}\n`,
      author: who,
      committer: who,
    });
    await git.updateRef(dir, `refs/heads/${pull.branch}`, headSha);
    await git.updateRef(dir, `refs/pull/${seed.issues.length + index + 1}/head`, headSha);
    out.push({
      headRepoId: 0,
      headRef: pull.branch,
      headSha,
      baseRef: seed.defaultBranch,
      baseSha: base.head,
      draft: false,
      maintainerCanModify: true,
      merged: false,
      mergedAt: null,
      mergedBy: null,
      mergeCommitSha: null,
    });
  }
  return out;
}

/** Writes the seed users, repositories (real git history), labels and issues. */
export async function seedSandbox(store: StateStore, git: GitStore): Promise<void> {
  store.mutate((s) => s.users.push(...SEED_USERS.map((u) => ({ ...u }))));
  const past: (() => Promise<void>)[] = [];
  for (const seed of [...SEED_REPOS, ...POLICY_REPOS]) {
    const owner = store.user(seed.owner);
    if (!owner) throw new Error(`seed owner ${seed.owner} is not a seed user`);
    const base = await seedGit(git, seed, { name: owner.name, email: owner.email });
    await seedBranches(git, seed, base, { name: owner.name, email: owner.email });
    const pullFields = await seedPullBranches(git, seed, base, { name: owner.name, email: owner.email });
    const lastCommit = seed.commits.at(-1)?.date ?? seed.createdAt;
    store.mutate((s) => {
      const repo: RepoRecord = {
        id: store.nextId(),
        owner: seed.owner,
        name: seed.name,
        description: seed.description,
        private: seed.private,
        language: seed.language,
        topics: seed.topics,
        homepage: null,
        defaultBranch: seed.defaultBranch,
        parentId: null,
        collaborators: [],
        labels: DEFAULT_LABELS.map((l) => ({ ...l, id: store.nextId(), default: true })),
        nextNumber: seed.issues.length + pullFields.length + (seed.closedPulls?.length ?? 0) + 1,
        createdAt: seed.createdAt,
        updatedAt: lastCommit,
        pushedAt: lastCommit,
      };
      s.repos.push(repo);
      seed.issues.forEach((issue, index) => {
        const record: IssueRecord = {
          id: store.nextId(),
          pullId: null,
          repoId: repo.id,
          number: index + 1,
          title: issue.title,
          body: issue.body,
          user: issue.user,
          labels: issue.labels,
          assignees: issue.assignees ?? [],
          state: issue.state,
          stateReason: issue.state === "closed" ? (issue.stateReason ?? "completed") : null,
          locked: issue.locked ?? false,
          comments: issue.comments ?? 0,
          createdAt: issue.createdAt,
          updatedAt: issue.closedAt ?? issue.createdAt,
          closedAt: issue.state === "closed" ? (issue.closedAt ?? issue.createdAt) : null,
          closedBy: issue.state === "closed" ? seed.owner : null,
          pull: null,
        };
        s.issues.push(record);
      });
      (seed.pulls ?? []).forEach((pull, index) => {
        const fields = pullFields[index];
        if (!fields) return;
        s.issues.push({
          id: store.nextId(),
          pullId: store.nextId(),
          repoId: repo.id,
          number: seed.issues.length + index + 1,
          title: pull.title,
          body: pull.body,
          user: pull.user,
          labels: [],
          assignees: [],
          state: "open",
          stateReason: null,
          locked: false,
          comments: 0,
          createdAt: pull.createdAt,
          updatedAt: pull.createdAt,
          closedAt: null,
          closedBy: null,
          pull: { ...fields, headRepoId: repo.id },
        });
      });
      // Closed pull requests take their ids last, so every other seeded id stays what it was.
      if (seed.closedPulls?.length)
        past.push(async () => {
          const firstNumber = seed.issues.length + pullFields.length + 1;
          const ids = { repoId: repo.id, firstNumber, nextId: () => store.nextId() };
          const closed = await seedClosedPulls(git, seed, base, owner, ids);
          store.mutate((state) => state.issues.push(...closed));
        });
    });
  }
  for (const seedPast of past) await seedPast();
}
