import fs from "node:fs";
import path from "node:path";
import type {
  AppPermissions,
  AppRecord,
  InstallationRecord,
  InstallationTokenRecord,
  ManifestCodeRecord,
} from "./apps.records";
import type { CheckRunRecord, ReviewCommentRecord, ReviewRecord } from "./webhooks.records";

export interface UserRecord {
  id: number;
  login: string;
  name: string;
  email: string;
  bio: string | null;
  company: string | null;
  location: string | null;
  createdAt: string;
  /** The account's GitHub plan (`free` when absent): Free and Pro have no draft pull requests in private repositories. */
  plan?: UserPlan;
}

export type UserPlan = "free" | "pro" | "team";

/** An organisation's base permission for its members on every repository it owns. */
export type OrgBasePermission = "none" | "read" | "write" | "admin";

/** A role on one repository, weakest first (GitHub's team and collaborator permissions). */
export const REPO_ROLES = ["pull", "triage", "push", "maintain", "admin"] as const;
export type RepoRole = (typeof REPO_ROLES)[number];

export interface TeamRecord {
  id: number;
  slug: string;
  name: string;
  members: string[];
  /** Repositories of the organisation this team grants access to, and the role it grants. */
  repos: { repoId: number; permission: RepoRole }[];
}

/** An organisation account: owns repositories; its members reach them by base permission or teams. */
export interface OrgRecord {
  id: number;
  login: string;
  name: string;
  createdAt: string;
  defaultPermission: OrgBasePermission;
  /** Org owners (`admin`) have admin on every repository of the organisation. */
  members: { login: string; role: "admin" | "member" }[];
  teams: TeamRecord[];
}

export interface LabelRecord {
  id: number;
  name: string;
  color: string;
  description: string | null;
  default: boolean;
}

export interface RepoRecord {
  id: number;
  owner: string;
  name: string;
  description: string | null;
  private: boolean;
  language: string | null;
  topics: string[];
  homepage: string | null;
  defaultBranch: string;
  /** Id of the repository this one was forked from (the direct parent). */
  parentId: number | null;
  collaborators: string[];
  labels: LabelRecord[];
  nextNumber: number;
  createdAt: string;
  updatedAt: string;
  pushedAt: string;
}

export interface PullFields {
  headRepoId: number;
  headRef: string;
  headSha: string;
  baseRef: string;
  baseSha: string;
  draft: boolean;
  maintainerCanModify: boolean;
  merged: boolean;
  mergedAt: string | null;
  mergedBy: string | null;
  mergeCommitSha: string | null;
  /** Seeded as the repository's past (closed before the stand-in started): `listPulls` leaves it out. */
  past?: boolean;
}

/** Issues and pull requests share one number space per repository, as on GitHub. */
export interface IssueRecord {
  id: number;
  /** Separate id of the pull-request object, when this issue is a pull request. */
  pullId: number | null;
  repoId: number;
  number: number;
  title: string;
  body: string | null;
  user: string;
  labels: string[];
  assignees: string[];
  state: "open" | "closed";
  stateReason: "completed" | "not_planned" | "reopened" | null;
  locked: boolean;
  comments: number;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
  closedBy: string | null;
  pull: PullFields | null;
}

/** An issue no longer in its repository: deleted (410), or transferred to `movedTo` (301 there). */
export interface GoneIssueRecord {
  repoId: number;
  number: number;
  movedTo: { repoId: number; number: number } | null;
}

/** A name a repository had before it was renamed or transferred: GitHub redirects it to the repository. */
export interface RepoRedirectRecord {
  owner: string;
  name: string;
  repoId: number;
}

/** A comment on an issue or pull request (the issue-comment API). */
export interface IssueCommentRecord {
  id: number;
  repoId: number;
  issueNumber: number;
  user: string;
  body: string;
  createdAt: string;
  updatedAt: string;
}

export interface TokenRecord {
  token: string;
  login: string;
  scopes: string[];
  createdAt: string;
  /** Set for an installation access token: the App's bot acts on these repositories only, with these permissions. */
  installation?: { id: number; repoIds: number[]; permissions: AppPermissions };
}

export interface OAuthCodeRecord {
  code: string;
  login: string;
  scopes: string[];
  clientId: string;
  redirectUri: string;
  expiresAt: number;
  used: boolean;
}

/** What a user has granted the OAuth app so far; every new token carries all of it, as on GitHub. */
export interface GrantRecord {
  login: string;
  scopes: string[];
}

export interface SandboxState {
  version: 1;
  nextId: number;
  users: UserRecord[];
  repos: RepoRecord[];
  issues: IssueRecord[];
  tokens: TokenRecord[];
  codes: OAuthCodeRecord[];
  /** Absent in state files written before grants were kept. */
  grants?: GrantRecord[];
  /** Absent in state files written before issue comments were kept. */
  issueComments?: IssueCommentRecord[];
  /** Reviews, review comments and check runs (absent in older state files). */
  reviews?: ReviewRecord[];
  reviewComments?: ReviewCommentRecord[];
  checkRuns?: CheckRunRecord[];
  /** Issues deleted or transferred (absent in older state files). */
  goneIssues?: GoneIssueRecord[];
  /** Organisations (absent in older state files). */
  orgs?: OrgRecord[];
  /** Former names of renamed or transferred repositories, newest last (absent in older state files). */
  repoRedirects?: RepoRedirectRecord[];
  /** GitHub Apps, their installations, installation tokens and pending manifest codes (absent in older state files). */
  apps?: AppRecord[];
  installations?: InstallationRecord[];
  installationTokens?: InstallationTokenRecord[];
  manifestCodes?: ManifestCodeRecord[];
}

export const emptyState = (): SandboxState => ({
  version: 1,
  nextId: 1_000_000,
  users: [],
  repos: [],
  issues: [],
  tokens: [],
  codes: [],
  grants: [],
});

/** In-memory state with a JSON file behind it; every mutation is saved atomically. */
export class StateStore {
  constructor(
    private readonly file: string,
    readonly data: SandboxState,
  ) {}

  static load(file: string): StateStore {
    const data = JSON.parse(fs.readFileSync(file, "utf8")) as SandboxState;
    return new StateStore(file, data);
  }

  static create(file: string): StateStore {
    const store = new StateStore(file, emptyState());
    store.save();
    return store;
  }

  nextId(): number {
    this.data.nextId += 1;
    return this.data.nextId;
  }

  /** Applies `fn` to the state and writes the file. */
  mutate<T>(fn: (data: SandboxState) => T): T {
    const result = fn(this.data);
    this.save();
    return result;
  }

  save(): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    fs.writeFileSync(tmp, JSON.stringify(this.data, null, 1));
    fs.renameSync(tmp, this.file);
  }

  user(login: string): UserRecord | undefined {
    const lower = login.toLowerCase();
    return this.data.users.find((u) => u.login.toLowerCase() === lower);
  }

  org(login: string): OrgRecord | undefined {
    const lower = login.toLowerCase();
    return (this.data.orgs ?? []).find((o) => o.login.toLowerCase() === lower);
  }

  repo(owner: string, name: string): RepoRecord | undefined {
    const o = owner.toLowerCase();
    const n = name.toLowerCase();
    return this.data.repos.find((r) => r.owner.toLowerCase() === o && r.name.toLowerCase() === n);
  }

  /**
   * The repository that answered to `owner/name` before a rename or transfer, when no repository
   * has that name now (a name taken again serves its new repository, not the redirect).
   */
  movedRepo(owner: string, name: string): RepoRecord | undefined {
    if (this.repo(owner, name)) return undefined;
    const o = owner.toLowerCase();
    const n = name.toLowerCase();
    const redirect = (this.data.repoRedirects ?? []).find(
      (r) => r.owner.toLowerCase() === o && r.name.toLowerCase() === n,
    );
    return redirect ? this.repoById(redirect.repoId) : undefined;
  }

  repoById(id: number): RepoRecord | undefined {
    return this.data.repos.find((r) => r.id === id);
  }

  issue(repoId: number, number: number): IssueRecord | undefined {
    return this.data.issues.find((i) => i.repoId === repoId && i.number === number);
  }

  /** Where issue `number` of the repository went, when it was deleted or transferred. */
  goneIssue(repoId: number, number: number): GoneIssueRecord | undefined {
    return (this.data.goneIssues ?? []).find((g) => g.repoId === repoId && g.number === number);
  }

  issuesOf(repoId: number): IssueRecord[] {
    return this.data.issues.filter((i) => i.repoId === repoId);
  }

  token(token: string): TokenRecord | undefined {
    return this.data.tokens.find((t) => t.token === token);
  }

  forksOf(repoId: number): RepoRecord[] {
    return this.data.repos.filter((r) => r.parentId === repoId);
  }

  /** The root of the fork network (GitHub's `source`). */
  sourceOf(repo: RepoRecord): RepoRecord {
    let current = repo;
    for (let parent = this.parentOf(current); parent; parent = this.parentOf(current)) current = parent;
    return current;
  }

  parentOf(repo: RepoRecord): RepoRecord | undefined {
    return repo.parentId === null ? undefined : this.repoById(repo.parentId);
  }
}

export const isoNow = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
