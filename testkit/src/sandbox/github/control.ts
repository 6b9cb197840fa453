import type { RefUpdateEntry, RequestLogEntry, SandboxDeps } from "./context";
import { appControls, type AppControls } from "./apps.control";
import { moveControls, type MoveControls } from "./moves.control";
import { issueToken, revokeGrant } from "./oauth.routes";
import { actingUser } from "./orgs";
import { orgControls, type OrgControls } from "./orgs.control";
import { pullsService } from "./pulls.service";
import { reviewsService } from "./reviews.service";
import type { FaultRule } from "./rate-limit";
import { DEFAULT_LABELS } from "./seed/seed.types";
import { isoNow, type IssueRecord, type RepoRecord, type UserPlan } from "./state";
import { webhookPayloads } from "./webhooks.payloads";
import type { WebhookDelivery } from "./webhooks.sender";

export interface SandboxPull {
  number: number;
  title: string;
  body: string | null;
  user: string;
  state: "open" | "closed";
  draft: boolean;
  merged: boolean;
  mergeCommitSha: string | null;
  head: { owner: string; repo: string; ref: string; sha: string };
  base: { ref: string; sha: string };
  htmlUrl: string;
}

export interface NewIssue {
  title: string;
  body?: string | null;
  labels?: string[];
  state?: "open" | "closed";
  /** Author login; defaults to the repository owner (an organisation's repository needs one: organisations author nothing). */
  user?: string;
  /**
   * Who closed it (state `closed`): the author or a user with triage access; by default the owner of
   * a user's repository or an owner (admin member) of the organisation.
   */
  closedBy?: string;
}

/** In-process controls for tests; everything here acts as GitHub itself would, not through the API. */
export interface GithubSandboxControl extends OrgControls, MoveControls, AppControls {
  /** Creates an OAuth token for `login` with exactly `scopes`. */
  issueToken(login: string, scopes: string[]): string;
  /** The user revokes the OAuth app's access on GitHub: its grant is forgotten and its tokens die. */
  revokeGrant(login: string): void;
  /** Moves the account to another GitHub plan (drafts in private repositories need `team`). */
  setPlan(login: string, plan: UserPlan): void;
  /** GitHub support detaches a fork from its network: it becomes a standalone repository. */
  detachFork(owner: string, repo: string): void;
  /**
   * Creates a repository owned by a user or an organisation, with one commit (a README) on `main`.
   * Returns its id.
   */
  createRepository(owner: string, name: string, o?: { private?: boolean; description?: string }): Promise<number>;
  /** Path of the bare git repository behind `owner/repo` (run `git --git-dir <path> ...`). */
  gitDir(owner: string, repo: string): string;
  /** The pull requests opened since the stand-in started and the seeded open ones (not the seeded past). */
  listPulls(owner: string, repo: string): SandboxPull[];
  /** Appends issues (numbers continue after the last issue or pull request); returns their numbers. */
  addIssues(owner: string, repo: string, issues: NewIssue[]): number[];
  /**
   * GitHub Actions finishes a job on `headSha` (as `github-actions`, which no token can impersonate):
   * its check run is delivered, and its log is served by the jobs API (redirecting to `logUrl` when
   * given, a foreign host for tests). Returns the check run's id, which is the job's.
   */
  finishActionsJob(
    owner: string,
    repo: string,
    job: { name: string; headSha: string; conclusion: string; log: string; logUrl?: string },
  ): number;
  /** `by` closes or reopens the issue (who may, and the default, as for `NewIssue.closedBy`). */
  setIssueState(
    owner: string,
    repo: string,
    number: number,
    state: "open" | "closed",
    reason?: "completed" | "not_planned",
    by?: string,
  ): void;
  /**
   * An admin deletes the issue: GET answers 410 from now on, listings leave it out, and an
   * `issues` `deleted` webhook is sent (the sender, a user with admin access, defaults as for `mergePull`).
   */
  deleteIssue(owner: string, repo: string, number: number, sender?: string): void;
  /**
   * The issue is transferred to `to`, where it is a new issue (a new id, numbered after its last issue
   * there) with the same comments: GET on the old place answers 301 to the new one, and an `issues`
   * `transferred` webhook is sent (the sender, a user with push access, defaults as for `mergePull`).
   * Returns the new number.
   */
  transferIssue(
    owner: string,
    repo: string,
    number: number,
    to: { owner: string; repo: string },
    sender?: string,
  ): number;
  /**
   * `by` merges the pull request into its base branch with a merge commit; returns the merge commit
   * sha. `by` is a user with push access, by default the owner of a user's repository or an owner
   * (admin member) of the organisation owning it.
   */
  mergePull(owner: string, repo: string, number: number, o?: { by?: string }): Promise<string>;
  /** Sends signed webhooks to `url` from now on (null stops them). */
  setWebhook(target: { url: string; secret: string } | null): void;
  /** Waits for the webhooks sent so far, then returns every delivery made (oldest first). */
  webhookDeliveries(): Promise<WebhookDelivery[]>;
  /** Makes the next matching request(s) fail with a rate-limit or server error. */
  failNext(rule: FaultRule): void;
  /** Every request answered so far, oldest first (a live array). */
  readonly requestLog: RequestLogEntry[];
  clearRequestLog(): void;
  /** Every ref update made through the REST API (with its force flag), oldest first (a live array). */
  readonly refUpdates: RefUpdateEntry[];
}

export function createControl(deps: SandboxDeps): GithubSandboxControl {
  const { store, git, urls } = deps;
  const pulls = pullsService(deps);
  const repoOf = (owner: string, name: string): RepoRecord => {
    const repo = store.repo(owner, name);
    if (!repo) throw new Error(`github sandbox: no repository ${owner}/${name}`);
    return repo;
  };
  // An issue's author may close it; anyone else needs triage access, as on GitHub.
  const closerOf = (repo: RepoRecord, by: string | undefined, author: string): string =>
    actingUser(store, repo, by, by !== undefined && by.toLowerCase() === author.toLowerCase() ? "pull" : "triage");
  const issueOf = (repo: RepoRecord, number: number): IssueRecord => {
    const found = store.issue(repo.id, number);
    if (!found) throw new Error(`github sandbox: no issue #${number} in ${repo.owner}/${repo.name}`);
    return found;
  };

  return {
    ...orgControls(deps, repoOf),
    ...moveControls(deps, repoOf),
    ...appControls(deps, repoOf),
    issueToken: (login, scopes) => issueToken(store, login, scopes),
    revokeGrant: (login) => revokeGrant(store, login),
    setWebhook: (target) => deps.hooks.configure(target),
    async webhookDeliveries() {
      await deps.hooks.settle();
      return [...deps.hooks.deliveries];
    },
    setPlan(login, plan) {
      const user = store.user(login);
      if (!user) throw new Error(`github sandbox: no user ${login}`);
      store.mutate(() => (user.plan = plan));
    },
    detachFork(owner, name) {
      const repo = repoOf(owner, name);
      store.mutate(() => (repo.parentId = null));
    },
    async createRepository(owner, name, o = {}) {
      const account = store.user(owner) ?? store.org(owner);
      if (!account) throw new Error(`github sandbox: no account ${owner}`);
      if (store.repo(account.login, name)) throw new Error(`github sandbox: ${account.login}/${name} already exists`);
      const dir = git.dir(account.login, name);
      await git.initBare(dir, "main");
      const tree = await git.writeTree(dir, null, [
        { path: "README.md", mode: "100644", type: "blob", content: `# ${name}\n` },
      ]);
      const author = { name: account.name, email: `${account.id}+${account.login}@users.noreply.github.com` };
      const head = await git.commitTree(dir, { tree, parents: [], message: "Initial commit\n", author });
      await git.updateRef(dir, "refs/heads/main", head);
      const now = isoNow();
      return store.mutate((s) => {
        const repo: RepoRecord = {
          id: store.nextId(),
          owner: account.login,
          name,
          description: o.description ?? null,
          private: o.private ?? false,
          language: null,
          topics: [],
          homepage: null,
          defaultBranch: "main",
          parentId: null,
          collaborators: [],
          labels: DEFAULT_LABELS.map((l) => ({ ...l, id: store.nextId(), default: true })),
          nextNumber: 1,
          createdAt: now,
          updatedAt: now,
          pushedAt: now,
        };
        s.repos.push(repo);
        return repo.id;
      });
    },
    gitDir: (owner, name) => git.dir(repoOf(owner, name).owner, repoOf(owner, name).name),
    listPulls(owner, name) {
      const repo = repoOf(owner, name);
      return store.issuesOf(repo.id).flatMap((i) => {
        if (!i.pull || i.pull.past) return [];
        const head = store.repoById(i.pull.headRepoId);
        return [
          {
            number: i.number,
            title: i.title,
            body: i.body,
            user: i.user,
            state: i.state,
            draft: i.pull.draft,
            merged: i.pull.merged,
            mergeCommitSha: i.pull.mergeCommitSha,
            head: { owner: head?.owner ?? "", repo: head?.name ?? "", ref: i.pull.headRef, sha: i.pull.headSha },
            base: { ref: i.pull.baseRef, sha: i.pull.baseSha },
            htmlUrl: `${urls.html}/${repo.owner}/${repo.name}/pull/${i.number}`,
          },
        ];
      });
    },
    finishActionsJob(owner, name, job) {
      const run = reviewsService(deps).addCheckRun(
        repoOf(owner, name),
        {
          name: job.name,
          headSha: job.headSha,
          conclusion: job.conclusion,
          title: `${job.name} ${job.conclusion === "success" ? "succeeded" : "failed"}`,
          summary: job.conclusion === "success" ? "" : "Process completed with exit code 1.",
          actions: { log: job.log, ...(job.logUrl ? { logUrl: job.logUrl } : {}) },
        },
        repoOf(owner, name).owner,
      );
      return run.id;
    },
    addIssues(owner, name, issues) {
      const repo = repoOf(owner, name);
      const authors = issues.map((n) => store.user(n.user ?? repo.owner)?.login ?? store.user(repo.owner)?.login);
      if (authors.includes(undefined))
        throw new Error(`github sandbox: issues of ${repo.owner}/${repo.name} need a user author`);
      const closers = issues.map((n, index) =>
        n.state === "closed" ? closerOf(repo, n.closedBy, authors[index] ?? repo.owner) : null,
      );
      return store.mutate((s) =>
        issues.map((n, index) => {
          const now = isoNow();
          const number = repo.nextNumber;
          repo.nextNumber += 1;
          const closed = n.state === "closed";
          s.issues.push({
            id: store.nextId(),
            pullId: null,
            repoId: repo.id,
            number,
            title: n.title,
            body: n.body ?? null,
            user: authors[index] ?? repo.owner,
            labels: (n.labels ?? []).filter((l) => repo.labels.some((x) => x.name === l)),
            assignees: [],
            state: closed ? "closed" : "open",
            stateReason: closed ? "completed" : null,
            locked: false,
            comments: 0,
            createdAt: now,
            updatedAt: now,
            closedAt: closed ? now : null,
            closedBy: closers[index] ?? null,
            pull: null,
          });
          return number;
        }),
      );
    },
    setIssueState(owner, name, number, state, reason, by) {
      const repo = repoOf(owner, name);
      const issue = issueOf(repo, number);
      const closer = state === "closed" ? closerOf(repo, by, issue.user) : null;
      const now = isoNow();
      store.mutate(() => {
        issue.state = state;
        issue.stateReason = state === "closed" ? (reason ?? "completed") : "reopened";
        issue.closedAt = state === "closed" ? now : null;
        issue.closedBy = closer;
        issue.updatedAt = now;
      });
    },
    deleteIssue(owner, name, number, sender) {
      const repo = repoOf(owner, name);
      const found = issueOf(repo, number);
      if (found.pull) throw new Error(`github sandbox: #${number} is a pull request; only issues are deleted`);
      const payload = webhookPayloads(deps).issueDeleted(repo, found, actingUser(store, repo, sender, "admin"));
      store.mutate((s) => {
        s.issues = s.issues.filter((i) => i !== found);
        (s.goneIssues ??= []).push({ repoId: repo.id, number, movedTo: null });
      });
      deps.hooks.send("issues", payload);
    },
    transferIssue(owner, name, number, to, sender) {
      const repo = repoOf(owner, name);
      const target = repoOf(to.owner, to.repo);
      const found = issueOf(repo, number);
      if (found.pull) throw new Error(`github sandbox: #${number} is a pull request; only issues are transferred`);
      if (target.id === repo.id) throw new Error("github sandbox: an issue is transferred to another repository");
      const by = actingUser(store, repo, sender, "push");
      // GitHub makes a new issue in the destination (a new id and number); the old one is gone.
      const moved: IssueRecord = store.mutate((s) => {
        const n = target.nextNumber;
        target.nextNumber += 1;
        const created: IssueRecord = {
          ...found,
          id: store.nextId(),
          repoId: target.id,
          number: n,
          // Labels the new repository does not have are dropped, as GitHub does.
          labels: found.labels.filter((l) => target.labels.some((x) => x.name === l)),
          assignees: [...found.assignees],
          updatedAt: isoNow(),
        };
        s.issues = s.issues.map((i) => (i === found ? created : i));
        // Its comments go with it.
        for (const c of s.issueComments ?? [])
          if (c.repoId === repo.id && c.issueNumber === number) Object.assign(c, { repoId: target.id, issueNumber: n });
        (s.goneIssues ??= []).push({ repoId: repo.id, number, movedTo: { repoId: target.id, number: n } });
        return created;
      });
      deps.hooks.send("issues", webhookPayloads(deps).issueTransferred(repo, found, target, moved, by));
      return moved.number;
    },
    async mergePull(owner, name, number, o = {}) {
      const repo = repoOf(owner, name);
      return pulls.merge(repo, issueOf(repo, number), actingUser(store, repo, o.by, "push"));
    },
    failNext: (rule) => deps.faults.add(rule),
    requestLog: deps.requestLog,
    clearRequestLog: () => void deps.requestLog.splice(0),
    refUpdates: deps.refUpdates,
  };
}
