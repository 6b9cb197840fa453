import type { SandboxDeps } from "./context";
import { DOCS_URL, githubErrors } from "./errors";
import { isPull, type PullStats } from "./pulls.payloads";
import { isoNow, type IssueRecord, type PullFields, type RepoRecord } from "./state";
import { webhookPayloads } from "./webhooks.payloads";

const CREATE_DOC = `${DOCS_URL.pulls}#create-a-pull-request`;
const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s+#(\d+)\b/gi;

export interface CreatePullInput {
  login: string;
  title: string;
  body: string | null;
  head: string;
  headRepo?: string;
  base: string;
  draft: boolean;
  maintainerCanModify?: boolean;
}

const headInvalid = () =>
  githubErrors.validation([{ resource: "PullRequest", field: "head", code: "invalid" }], CREATE_DOC);

/** Pull-request operations over real git objects; the head is copied into the base repo as refs/pull/N/head. */
export function pullsService(deps: SandboxDeps) {
  const { store, git } = deps;
  const dirOf = (r: RepoRecord) => git.dir(r.owner, r.name);

  function findHeadRepo(base: RepoRecord, owner: string, headRepo?: string): RepoRecord | undefined {
    if (headRepo) return store.repo(owner, headRepo);
    if (owner.toLowerCase() === base.owner.toLowerCase()) return base;
    const network = store.sourceOf(base).id;
    return store.data.repos.find(
      (r) => r.owner.toLowerCase() === owner.toLowerCase() && store.sourceOf(r).id === network,
    );
  }

  async function create(base: RepoRecord, input: CreatePullInput): Promise<IssueRecord> {
    const [owner, ref] = input.head.includes(":")
      ? (input.head.split(":", 2) as [string, string])
      : [base.owner, input.head];
    const headRepo = findHeadRepo(base, owner, input.headRepo);
    if (
      !headRepo ||
      (headRepo.private && headRepo.owner !== input.login && !headRepo.collaborators.includes(input.login))
    )
      throw headInvalid();
    const baseDir = dirOf(base);
    return git.lock(baseDir, async () => {
      const headSha = await git.resolve(dirOf(headRepo), `refs/heads/${ref}`);
      if (!headSha) throw headInvalid();
      const baseSha = await git.resolve(baseDir, `refs/heads/${input.base}`);
      if (!baseSha)
        throw githubErrors.validation([{ resource: "PullRequest", field: "base", code: "invalid" }], CREATE_DOC);
      const duplicate = store
        .issuesOf(base.id)
        .find(
          (i) =>
            i.pull &&
            i.state === "open" &&
            i.pull.headRepoId === headRepo.id &&
            i.pull.headRef === ref &&
            i.pull.baseRef === input.base,
        );
      if (duplicate) {
        throw githubErrors.validation(
          [
            {
              resource: "PullRequest",
              code: "custom",
              message: `A pull request already exists for ${headRepo.owner}:${ref}.`,
            },
          ],
          CREATE_DOC,
        );
      }
      const number = base.nextNumber;
      await git.fetch(baseDir, dirOf(headRepo), `+refs/heads/${ref}:refs/pull/${number}/head`);
      if (await git.isAncestor(baseDir, headSha, baseSha)) {
        await git.deleteRef(baseDir, `refs/pull/${number}/head`);
        throw githubErrors.validation(
          [{ resource: "PullRequest", code: "custom", message: `No commits between ${input.base} and ${input.head}` }],
          CREATE_DOC,
        );
      }
      const now = isoNow();
      const pull: PullFields = {
        headRepoId: headRepo.id,
        headRef: ref,
        headSha,
        baseRef: input.base,
        baseSha,
        draft: input.draft,
        maintainerCanModify: input.maintainerCanModify ?? headRepo.id !== base.id,
        merged: false,
        mergedAt: null,
        mergedBy: null,
        mergeCommitSha: null,
      };
      return store.mutate((s) => {
        base.nextNumber += 1;
        const record: IssueRecord = {
          id: store.nextId(),
          pullId: store.nextId(),
          repoId: base.id,
          number,
          title: input.title,
          body: input.body,
          user: input.login,
          labels: [],
          assignees: [],
          state: "open",
          stateReason: null,
          locked: false,
          comments: 0,
          createdAt: now,
          updatedAt: now,
          closedAt: null,
          closedBy: null,
          pull,
        };
        s.issues.push(record);
        return record;
      });
    });
  }

  /** Follows pushes to the head branch of an open pull request, as GitHub does. */
  async function refresh(base: RepoRecord, pr: IssueRecord): Promise<void> {
    if (!pr.pull || pr.state !== "open") return;
    const headRepo = store.repoById(pr.pull.headRepoId);
    if (!headRepo) return;
    const current = await git.resolve(dirOf(headRepo), `refs/heads/${pr.pull.headRef}`);
    const baseSha = await git.resolve(dirOf(base), `refs/heads/${pr.pull.baseRef}`);
    if (current && current !== pr.pull.headSha) {
      await git.fetch(dirOf(base), dirOf(headRepo), `+refs/heads/${pr.pull.headRef}:refs/pull/${pr.number}/head`);
    }
    const pull = pr.pull;
    if ((current && current !== pull.headSha) || (baseSha && baseSha !== pull.baseSha)) {
      store.mutate(() => {
        if (current) pull.headSha = current;
        if (baseSha) pull.baseSha = baseSha;
      });
    }
  }

  async function stats(base: RepoRecord, pr: IssueRecord): Promise<PullStats> {
    if (!isPull(pr)) throw new Error("not a pull request");
    const dir = dirOf(base);
    const from = (await git.mergeBase(dir, pr.pull.baseSha, pr.pull.headSha)) ?? pr.pull.baseSha;
    const diff = await git.diffStat(dir, from, pr.pull.headSha);
    const commits = await git.countCommits(dir, pr.pull.baseSha, pr.pull.headSha);
    const mergeable = pr.state === "open" ? (await git.mergeTree(dir, pr.pull.baseSha, pr.pull.headSha)).clean : null;
    return {
      commits,
      additions: diff.additions,
      deletions: diff.deletions,
      changedFiles: diff.changedFiles,
      mergeable,
    };
  }

  /** Merges with a merge commit on the base branch and closes issues the body says it fixes. */
  async function merge(base: RepoRecord, pr: IssueRecord, by: string, commitTitle?: string): Promise<string> {
    if (!isPull(pr) || pr.state !== "open")
      throw githubErrors.conflict("Pull Request is not mergeable", `${DOCS_URL.pulls}#merge-a-pull-request`);
    await refresh(base, pr);
    const dir = dirOf(base);
    const mergeSha = await git.lock(dir, async () => {
      const baseSha = await git.resolve(dir, `refs/heads/${pr.pull.baseRef}`);
      if (!baseSha)
        throw githubErrors.unprocessable("Base branch was deleted", `${DOCS_URL.pulls}#merge-a-pull-request`);
      const merged = await git.mergeTree(dir, baseSha, pr.pull.headSha);
      if (!merged.clean) throw githubErrors.conflict("Merge conflict", `${DOCS_URL.pulls}#merge-a-pull-request`);
      const headRepo = store.repoById(pr.pull.headRepoId);
      const user = store.user(by);
      const message = `${commitTitle ?? `Merge pull request #${pr.number} from ${headRepo?.owner ?? base.owner}/${pr.pull.headRef}`}\n\n${pr.title}`;
      const sha = await git.commitTree(dir, {
        tree: merged.tree,
        parents: [baseSha, pr.pull.headSha],
        message,
        author: { name: user?.name ?? by, email: user?.email ?? `${by}@users.noreply.github.com` },
        committer: { name: "GitHub", email: "noreply@github.com" },
      });
      await git.updateRef(dir, `refs/heads/${pr.pull.baseRef}`, sha, baseSha);
      const now = isoNow();
      store.mutate(() => {
        Object.assign(pr.pull, { merged: true, mergedAt: now, mergedBy: by, mergeCommitSha: sha, baseSha });
        Object.assign(pr, { state: "closed", closedAt: now, updatedAt: now, closedBy: by });
        base.pushedAt = now;
        if (pr.pull.baseRef !== base.defaultBranch) return;
        for (const m of `${pr.title}\n${pr.body ?? ""}`.matchAll(CLOSING)) {
          const target = store.issue(base.id, Number(m[1]));
          if (target && !target.pull && target.state === "open") {
            Object.assign(target, {
              state: "closed",
              stateReason: "completed",
              closedAt: now,
              updatedAt: now,
              closedBy: by,
            });
          }
        }
      });
      return sha;
    });
    await announceClosed(base, pr, by);
    return mergeSha;
  }

  /** Delivers `pull_request` closed (merged or not), or reopened, as a webhook. */
  async function announceClosed(
    base: RepoRecord,
    pr: IssueRecord,
    by: string,
    action: "closed" | "reopened" = "closed",
  ): Promise<void> {
    if (!isPull(pr)) return;
    deps.hooks.send("pull_request", webhookPayloads(deps).closed(base, pr, await stats(base, pr), by, action));
  }

  return { create, refresh, stats, merge, announceClosed };
}
