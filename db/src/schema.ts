import type { ColumnType, Generated, GeneratedAlways, Insertable, Selectable, Updateable } from "kysely";
import type {
  FileChange,
  IssueGone,
  IssueStatus,
  LinkedPullRequest,
  PlanId,
  PullRequestEventKind,
  PullRequestStatus,
  RunStatus,
  SolutionStatus,
  StepDetail,
  StepId,
  StepStatus,
} from "@fixloop/contract";

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/**
 * jsonb: read as `unknown` (older rows may hold other shapes; repositories decode with the column's
 * codec in repositories/json-columns.ts, so a row served undecoded does not compile), written as
 * the codec's JSON text. T is the shape the column holds when written today.
 */
type Json<T> = ColumnType<unknown, T | string | undefined, T | string>;
/** numeric comes back from pg as a string to keep precision. */
type Numeric = ColumnType<string, number | string | undefined, number | string>;
type BigIntCol = ColumnType<string, number | string | bigint, number | string | bigint>;

export interface UsersTable {
  id: Generated<string>;
  github_id: BigIntCol;
  username: string;
  email: string | null;
  avatar_url: string | null;
  preferences: Json<Record<string, unknown>>;
  /** Spending caps in USD; null means the operator's default (RUN_COST_CAP_USD, MONTHLY_COST_CAP_USD). */
  run_cost_cap_usd: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  monthly_cost_cap_usd: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  /** Upstream pull requests open as drafts (default true). */
  draft_pull_requests: Generated<boolean>;
  /** How many candidate patches a solve generates unless the run says otherwise (1–4). */
  default_candidates: Generated<number>;
  /** How step 4 writes a fix unless the run says otherwise: `single` or `investigate`. */
  default_run_mode: ColumnType<
    "single" | "investigate",
    "single" | "investigate" | undefined,
    "single" | "investigate"
  >;
  /** Whether unverified solutions are presented; null means the operator's default (PRESENT_UNVERIFIED). */
  present_unverified: ColumnType<boolean | null, boolean | null | undefined, boolean | null>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface SessionsTable {
  id: Generated<string>;
  token_hash: string;
  user_id: string;
  user_agent: string | null;
  created_at: GeneratedTimestamp;
  last_seen_at: GeneratedTimestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
}

export interface LoginCodesTable {
  code_hash: string;
  user_id: string;
  /** Hash of the browser binding of the sign-in that produced the code; null codes are never accepted. */
  browser_binding_hash: string | null;
  created_at: GeneratedTimestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface OauthStatesTable {
  state_hash: string;
  purpose: "signin" | "repos";
  browser_binding_hash: string;
  user_id: string | null;
  scopes: string[];
  created_at: GeneratedTimestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface ApiTokensTable {
  id: Generated<string>;
  user_id: string;
  name: string;
  token_hash: string;
  prefix: string;
  created_at: GeneratedTimestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

export interface GithubAccountsTable {
  user_id: string;
  github_id: BigIntCol;
  login: string;
  access_token_enc: string;
  key_id: string;
  scopes: ColumnType<string[], string[] | undefined, string[]>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

/** A GitHub App installation: an account, all or selected repositories, suspended or not. */
export interface GithubInstallationsTable {
  installation_id: BigIntCol;
  account_login: string;
  account_id: BigIntCol;
  account_type: string;
  repository_selection: string;
  /** GitHub id of the user who installed it (the `installation.created` sender), when known. */
  installed_by_github_id: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  suspended_at: NullableTimestamp;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

/** The repositories an installation reaches, as GitHub last said. */
export interface GithubInstallationRepositoriesTable {
  installation_id: BigIntCol;
  /** The repository (see `github_repositories`). */
  github_id: BigIntCol;
}

/** Users who answered the one-time prompt to install the GitHub App instead of their OAuth grant. */
export interface GithubAppPromptsTable {
  user_id: string;
  answered_at: GeneratedTimestamp;
}

/** The Fixloop users an installation serves. */
export interface GithubInstallationUsersTable {
  installation_id: BigIntCol;
  user_id: string;
}

/** A repository on GitHub, known by its id: the name is display data (a rename is one update). */
export interface GithubRepositoriesTable {
  github_id: BigIntCol;
  owner: string;
  name: string;
  full_name: string;
  description: string | null;
  is_private: Generated<boolean>;
  is_fork: Generated<boolean>;
  language: string | null;
  html_url: string;
  default_branch: Generated<string>;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

/** What a user may do in a repository, GitHub's roles from most to least. */
export type RepositoryPermission = "admin" | "maintain" | "push" | "triage" | "pull";

/** A user's access to a GitHub repository (see `github_repositories`), with the user's settings for it. */
export interface RepositoriesTable {
  id: Generated<string>;
  user_id: string;
  github_id: BigIntCol;
  /** The user's permission there, as GitHub last said (an App installation writes: push). */
  permission: ColumnType<RepositoryPermission, RepositoryPermission | undefined, RepositoryPermission>;
  /** The user can push there (admin, maintain or push), computed from `permission`. */
  can_push: GeneratedAlways<boolean>;
  /** When the repository sync no longer found it in the user's list (access revoked, deleted); null while listed. */
  left_at: NullableTimestamp;
  issues_etag: string | null;
  /** The user's test command override for this repository; null = detect. */
  test_settings: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  /** Issues carrying this label are solved automatically (null: off). */
  solve_label: string | null;
  solve_label_enabled_at: NullableTimestamp;
  /** Logins besides those with write access whose label starts a solve (bots, auto-labelers). */
  solve_label_senders: Generated<string[]>;
  /** The last label trigger refused for its sender: when, on which issue, whose (null: not known) and why. */
  solve_label_refused_at: NullableTimestamp;
  solve_label_refused_issue: number | null;
  solve_label_refused_sender: string | null;
  solve_label_refused_reason: string | null;
  synced_at: NullableTimestamp;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface IssuesTable {
  id: Generated<string>;
  user_id: string;
  repository_id: string | null;
  /** The GitHub repository the issue lives in (an imported issue's upstream). */
  repository_github_id: BigIntCol;
  github_id: BigIntCol | null;
  issue_number: number;
  title: string;
  body: string | null;
  labels: Json<string[]>;
  state: Generated<string>;
  status: ColumnType<IssueStatus, IssueStatus | undefined, IssueStatus>;
  html_url: string;
  author_login: string | null;
  is_locked: Generated<boolean>;
  assignees: Json<string[]>;
  /** Open pull requests on GitHub that reference the issue (see `issueLinkedPulls`). */
  linked_pull_requests: Json<LinkedPullRequest[]>;
  is_imported: Generated<boolean>;
  /** Set when GitHub no longer has the issue here: deleted, or transferred to `moved_to`. */
  gone: ColumnType<IssueGone | null, IssueGone | null | undefined, IssueGone | null>;
  moved_to: ColumnType<string | null, string | null | undefined, string | null>;
  /** An imported issue's fork, where it is worked on. */
  fork_github_id: ColumnType<string | null, number | string | null | undefined, number | string | null>;
  github_created_at: NullableTimestamp;
  github_updated_at: NullableTimestamp;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

/** Bumped by triggers whenever a row a user's issue list reads changes (2026-11-29 migration). */
export interface IssueListVersionsTable {
  user_id: string;
  version: BigIntCol;
}

/** A run's test log, one row per phase: the end of its output (2026-11-29 migration). */
export interface RunTestLogsTable {
  run_id: string;
  phase: string;
  output: string;
  dropped: BigIntCol;
  counts: Json<Record<string, unknown>>;
  done: boolean;
  updated_at: Generated<Date>;
}

export interface SolutionsTable {
  id: Generated<string>;
  user_id: string;
  issue_id: string;
  run_id: string | null;
  status: ColumnType<SolutionStatus, SolutionStatus | undefined, SolutionStatus>;
  analysis: string;
  proposed_solution: string;
  ai_model: string;
  confidence: Generated<number>;
  files_changed: Json<FileChange[]>;
  metadata: Json<Record<string, unknown>>;
  refinement_count: Generated<number>;
  revision: Generated<number>;
  base_commit_sha: string | null;
  /** The token of the worker attempt that took the current revision's tests re-run last (see claims.ts). */
  tests_claim_token: string | null;
  /** The token of the worker attempt that took the solution's pull-request job last (see claims.ts). */
  pr_claim_token: string | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface SolutionRevisionsTable {
  id: Generated<string>;
  solution_id: string;
  revision: number;
  kind: "generated" | "refinement" | "manual";
  files_changed: Json<FileChange[]>;
  analysis: string | null;
  proposed_solution: string | null;
  reason: string | null;
  feedback: string | null;
  run_id: string | null;
  created_at: GeneratedTimestamp;
}

export interface SolveRunsTable {
  id: Generated<string>;
  user_id: string;
  issue_id: string;
  /** `backtest`: a repository backtest's solve of a past issue (never a solution, never touches its issue). */
  kind: ColumnType<
    "solve" | "refine" | "backtest",
    "solve" | "refine" | "backtest" | undefined,
    "solve" | "refine" | "backtest"
  >;
  solution_id: string | null;
  /** The repository backtest a `backtest` run solves for (null for the others): it ends with it. */
  backtest_id: string | null;
  model_id: string;
  status: ColumnType<RunStatus, RunStatus | undefined, RunStatus>;
  current_step: StepId | null;
  input: Json<Record<string, unknown>>;
  error_code: string | null;
  error_message: string | null;
  quota_period_start: NullableTimestamp;
  quota_state: ColumnType<
    "none" | "reserved" | "charged" | "released",
    "none" | "reserved" | "charged" | "released" | undefined,
    "none" | "reserved" | "charged" | "released"
  >;
  tokens_in: Generated<number>;
  tokens_out: Generated<number>;
  cost_usd: Numeric;
  attempts: Generated<number>;
  cancel_requested_at: NullableTimestamp;
  /** Why the run was asked to stop, as the first request said (see runs.requestCancel); null when it never was. */
  cancel_error_code: string | null;
  cancel_error_message: string | null;
  /** The token of the worker attempt that claimed the run last (see runs.claims); its writes land only while it is here. */
  claim_token: string | null;
  created_at: GeneratedTimestamp;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
}

export interface RunStepsTable {
  run_id: string;
  step: StepId;
  status: StepStatus;
  detail: Json<StepDetail>;
  /** The step's full result, kept so a retried job resumes after the last stored step. */
  output: Json<unknown> | null;
  tokens_in: Generated<number>;
  tokens_out: Generated<number>;
  cost_usd: Numeric;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  duration_ms: number | null;
  /** What the model was sent (generating step): see PromptRecord in the worker's contract. */
  prompt: Json<unknown> | null;
  /** Cost estimated from the prompt before the model call. */
  estimate_usd: ColumnType<string | null, number | string | null | undefined, number | string | null>;
}

/** One model request and what it cost, recorded when its answer arrived. */
export interface ModelRequestsTable {
  id: Generated<string>;
  run_id: string;
  user_id: string;
  step: StepId;
  /** Why it was sent: the answer, the repair of edits that did not apply, the tests' repair round. */
  purpose: string;
  model_id: string;
  tokens_in: number;
  tokens_out: number;
  cost_usd: ColumnType<string, number | string, number | string>;
  /** Which HTTP attempt of its model call this was (1 for the first, higher for provider retries). */
  attempts: Generated<number>;
  duration_ms: number;
  created_at: GeneratedTimestamp;
  /** reserved (in flight, at its worst case) → settled (real cost) | unconfirmed (worst case, real cost unknown) | released (never sent, 0). */
  state: ColumnType<ModelRequestState, ModelRequestState | undefined, ModelRequestState>;
  /** The worst case reserved before sending. */
  reserved_usd: ColumnType<string, number | string | undefined, number | string>;
  /** What became of it: ok, malformed, an error code, interrupted. */
  outcome: ColumnType<string | null, string | null | undefined, string | null>;
  settled_at: NullableTimestamp;
}

export type ModelRequestState = "reserved" | "settled" | "unconfirmed" | "released";

/**
 * One embedded chunk of a file (lines start_line..end_line of the blob). `embedding` is pgvector's
 * `vector` or `real[]`, whichever the migration could create; read it through the embeddings repository.
 */
export interface EmbeddingChunksTable {
  repository: string;
  blob_sha: string;
  /** Chunking version: a new way of cutting files never reuses the old vectors. */
  chunker: string;
  model: string;
  chunk: number;
  start_line: number;
  end_line: number;
  embedding: ColumnType<string, string, string>;
  created_at: GeneratedTimestamp;
}

export interface ValidationDecisionsTable {
  id: Generated<string>;
  solution_id: string;
  user_id: string;
  status: "approved" | "rejected";
  comments: string | null;
  created_at: GeneratedTimestamp;
}

export interface PullRequestsTable {
  id: Generated<string>;
  user_id: string;
  solution_id: string;
  issue_id: string;
  /** The repository the pull request is opened in, and the one its branch is in (a fork, or the same). */
  base_github_id: BigIntCol;
  head_github_id: BigIntCol;
  pr_number: number;
  title: string;
  body: string | null;
  branch_name: string;
  base_branch: string;
  status: ColumnType<PullRequestStatus, PullRequestStatus | undefined, PullRequestStatus>;
  html_url: string;
  metadata: Json<Record<string, unknown>>;
  etag: string | null;
  synced_at: NullableTimestamp;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
  /** The solution revision Fixloop last pushed to the branch, and that commit (null before review addressing existed). */
  pushed_revision: ColumnType<number | null, number | null | undefined, number | null>;
  head_sha: ColumnType<string | null, string | null | undefined, string | null>;
  /** GitHub's `updated_at` of the state the status was last taken from; an older webhook changes nothing. */
  github_updated_at: NullableTimestamp;
}

export interface PullRequestEventsTable {
  id: Generated<string>;
  pull_request_id: string;
  kind: PullRequestEventKind;
  /** GitHub's id of the review, comment, commit or check run; unique per pull request and kind. */
  source_id: string;
  actor: string | null;
  state: string | null;
  title: string | null;
  /** A reviewer's text: untrusted. */
  body: string | null;
  path: string | null;
  line: number | null;
  url: string | null;
  occurred_at: Timestamp;
  created_at: GeneratedTimestamp;
  /** A review comment's diff hunk and the comment whose thread it answers. */
  diff_hunk: ColumnType<string | null, string | null | undefined, string | null>;
  in_reply_to: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the user asked Fixloop to address the comment, and the commit that did (its thread got a reply). */
  address_requested_at: NullableTimestamp;
  addressed_commit: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SubscriptionsTable {
  user_id: string;
  plan: ColumnType<PlanId, PlanId | undefined, PlanId>;
  status: Generated<string>;
  current_period_start: GeneratedTimestamp;
  current_period_end: GeneratedTimestamp;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface PaymentsTable {
  id: Generated<string>;
  user_id: string;
  provider: Generated<string>;
  provider_order_id: string;
  provider_payment_id: string | null;
  plan: PlanId;
  amount: number;
  currency: string;
  status: ColumnType<
    "created" | "paid" | "failed" | "refunded",
    "created" | "paid" | "failed" | "refunded" | undefined,
    "created" | "paid" | "failed" | "refunded"
  >;
  failure_reason: string | null;
  activated_at: NullableTimestamp;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface UsageCountersTable {
  user_id: string;
  period_start: Timestamp;
  used: Generated<number>;
  notified_80: Generated<boolean>;
  updated_at: GeneratedTimestamp;
}

export interface NotificationsTable {
  id: Generated<string>;
  user_id: string;
  kind: string;
  message: string;
  link: string | null;
  read_at: NullableTimestamp;
  created_at: GeneratedTimestamp;
}

export interface WebhookEventsTable {
  event_id: string;
  provider: string;
  type: string;
  payload: Json<unknown>;
  received_at: GeneratedTimestamp;
  processed_at: NullableTimestamp;
}

/** One per issue and label seen by the label trigger: what came of it (the idempotency key). */
export interface LabelTriggersTable {
  id: Generated<string>;
  user_id: string;
  issue_id: string;
  /** Lower-cased: GitHub label names compare case-insensitively. */
  label: string;
  sender_login: string | null;
  outcome: Generated<string>;
  run_id: string | null;
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

/** One backtest of a repository row: its recently fixed issues, localized at each fix's base commit. */
export interface RepositoryBacktestsTable {
  id: Generated<string>;
  repository_id: string;
  user_id: string;
  status: Generated<string>;
  requested: number;
  found: Generated<number>;
  checked: Generated<number>;
  found_at_1: Generated<number>;
  found_at_5: Generated<number>;
  solve: Generated<boolean>;
  model_id: string | null;
  issues: Json<unknown[]>;
  error: string | null;
  created_at: GeneratedTimestamp;
  started_at: NullableTimestamp;
  /** The token of the worker attempt that began the backtest last (see backtests.begin); its writes land only while it is here. */
  claim_token: string | null;
  finished_at: NullableTimestamp;
}

/** An administrator login and the GitHub account it belonged to when first seen (see admin-bindings.repository.ts). */
export interface AdminBindingsTable {
  login: string;
  github_id: BigIntCol;
  bound_at: GeneratedTimestamp;
}

/** Fixloop's GitHub App made by the manifest flow; secrets encrypted (github-app-configs.repository.ts). */
export interface GithubAppConfigsTable {
  id: Generated<string>;
  app_id: BigIntCol;
  slug: string;
  name: string;
  owner_login: string;
  html_url: string;
  client_id: string;
  key_id: string;
  client_secret_enc: string;
  webhook_secret_enc: string;
  private_key_enc: string;
  permissions: Json<Record<string, string>>;
  events: string[];
  created_by: string | null;
  created_at: GeneratedTimestamp;
}

/** A manifest flow's `state`, hashed, bound to the operator's session, single use. */
export interface GithubAppManifestStatesTable {
  state_hash: string;
  user_id: string;
  session_hash: string;
  created_at: GeneratedTimestamp;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: NullableTimestamp;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  login_codes: LoginCodesTable;
  oauth_states: OauthStatesTable;
  api_tokens: ApiTokensTable;
  github_accounts: GithubAccountsTable;
  github_installations: GithubInstallationsTable;
  github_installation_repositories: GithubInstallationRepositoriesTable;
  github_installation_users: GithubInstallationUsersTable;
  github_app_prompts: GithubAppPromptsTable;
  github_repositories: GithubRepositoriesTable;
  repositories: RepositoriesTable;
  issues: IssuesTable;
  issue_list_versions: IssueListVersionsTable;
  solutions: SolutionsTable;
  solution_revisions: SolutionRevisionsTable;
  solve_runs: SolveRunsTable;
  run_steps: RunStepsTable;
  run_test_logs: RunTestLogsTable;
  model_requests: ModelRequestsTable;
  embedding_chunks: EmbeddingChunksTable;
  validation_decisions: ValidationDecisionsTable;
  pull_requests: PullRequestsTable;
  pull_request_events: PullRequestEventsTable;
  subscriptions: SubscriptionsTable;
  payments: PaymentsTable;
  usage_counters: UsageCountersTable;
  notifications: NotificationsTable;
  webhook_events: WebhookEventsTable;
  label_triggers: LabelTriggersTable;
  repository_backtests: RepositoryBacktestsTable;
  admin_bindings: AdminBindingsTable;
  github_app_configs: GithubAppConfigsTable;
  github_app_manifest_states: GithubAppManifestStatesTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
/** The names an issue is shown and worked under, read from its repositories' rows (see `issues.reads.ts`). */
export interface IssueNames {
  /** Its repository's name now (an imported issue's upstream). */
  repo_full_name: string;
  /** An imported issue's upstream (the same as `repo_full_name`); null for the others. */
  upstream_full_name: string | null;
  fork_full_name: string | null;
  /** When the user's list lost the issue's repository (never for an imported issue); null while listed. */
  repository_left_at: Date | null;
}
export type IssueRow = Selectable<IssuesTable>;
export type Issue = IssueRow & IssueNames;
export type NewIssue = Insertable<IssuesTable>;
export type IssueUpdate = Updateable<IssuesTable>;
export type GithubRepository = Selectable<GithubRepositoriesTable>;
/** A user's access row with its GitHub repository's fields (names, page, default branch). */
export type Repository = Selectable<RepositoriesTable> & Omit<GithubRepository, "created_at" | "updated_at">;
export type Solution = Selectable<SolutionsTable>;
export type SolveRun = Selectable<SolveRunsTable>;
export type NewSolveRun = Insertable<SolveRunsTable>;
export type RunStep = Selectable<RunStepsTable>;
/** A pull request with its base and head repositories' names now. */
export type PullRequest = Selectable<PullRequestsTable> & { repo_full_name: string; head_repo_full_name: string };
export type Subscription = Selectable<SubscriptionsTable>;
export type Payment = Selectable<PaymentsTable>;
