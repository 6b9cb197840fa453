import { z } from "zod";
import { TIMELINE_TEXT_MAX, githubLogin, githubRepoName } from "@fixloop/contract";

/**
 * The fields Fixloop keeps of GitHub's webhook payloads (everything else is dropped before the
 * event is stored). Texts are cut to TIMELINE_TEXT_MAX; they are a reviewer's words: untrusted.
 */
const text = z
  .string()
  .nullish()
  .transform((s) => (s == null ? null : s.slice(0, TIMELINE_TEXT_MAX)));
const logText = z
  .string()
  .nullish()
  .transform((s) => (s == null ? null : s.slice(-TIMELINE_TEXT_MAX)));
const login = z.object({ login: z.string() }).nullish();
/** A delivery's repository: known by its GitHub id (the name is for the logs). */
const Repository = z.object({
  id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  full_name: z.string().min(1),
});
const PullRef = z.object({ number: z.number().int().positive() });

/**
 * A repository with its GitHub id and where it lives now, in GitHub's own name rules (an account
 * login, a repository name that is not `.` or `..`), its full name agreeing with both: what a
 * rename followed from a delivery may write.
 */
export const RepositoryLocation = z
  .object({
    id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    name: githubRepoName(),
    owner: z.object({ login: githubLogin() }),
    full_name: z.string(),
  })
  .refine((r) => r.full_name === `${r.owner.login}/${r.name}`, { path: ["full_name"] });

export const ReviewCommentEvent = z.object({
  action: z.string(),
  repository: Repository,
  pull_request: PullRef,
  comment: z.object({
    id: z.number(),
    body: text,
    path: z.string().nullish(),
    line: z.number().int().nullish(),
    original_line: z.number().int().nullish(),
    diff_hunk: text,
    in_reply_to_id: z.number().nullish(),
    user: login,
    html_url: z.string().nullish(),
    created_at: z.string(),
  }),
});

export const ReviewEvent = z.object({
  action: z.string(),
  repository: Repository,
  pull_request: PullRef,
  review: z.object({
    id: z.number(),
    state: z.string(),
    body: text,
    user: login,
    html_url: z.string().nullish(),
    submitted_at: z.string().nullish(),
  }),
});

export const PullRequestEvent = z.object({
  action: z.string(),
  repository: Repository,
  sender: login,
  after: z.string().nullish(),
  pull_request: z.object({
    number: z.number().int().positive(),
    merged: z.boolean().nullish(),
    merged_by: login,
    closed_at: z.string().nullish(),
    updated_at: z.string().nullish(),
    html_url: z.string().nullish(),
  }),
});

export const PushEvent = z.object({
  ref: z.string(),
  repository: Repository,
  sender: login,
  commits: z
    .array(
      z.object({
        id: z.string(),
        message: text,
        timestamp: z.string(),
        url: z.string().nullish(),
        author: z.object({ name: z.string().nullish(), username: z.string().nullish() }).nullish(),
      }),
    )
    .max(2048),
});

export const CheckRunEvent = z.object({
  action: z.string(),
  repository: Repository,
  check_run: z.object({
    id: z.number(),
    name: z.string(),
    status: z.string(),
    conclusion: z.string().nullish(),
    html_url: z.string().nullish(),
    details_url: z.string().max(2000).nullish(),
    completed_at: z.string().nullish(),
    app: z.object({ slug: z.string().max(100).nullish() }).nullish(),
    // A check's text is often a log: its end is kept (where the failure is), bounded when stored.
    output: z.object({ title: text, summary: text, text: logText }).nullish(),
    check_suite: z.object({ head_branch: z.string().nullish() }).nullish(),
    pull_requests: z.array(PullRef).max(100),
  }),
});

/**
 * `issues`: `labeled` goes to the label trigger (the issue itself is read again from GitHub);
 * `deleted` and `transferred` (with where it went) close Fixloop's rows of the issue for good.
 */
export const IssuesEvent = z.object({
  action: z.string(),
  repository: Repository,
  issue: z.object({
    number: z.number().int().positive(),
    // GitHub's id of the issue (always sent); the issue is found by its repository's id and its number.
    id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).nullish(),
  }),
  label: z.object({ name: z.string().min(1).max(100) }).nullish(),
  changes: z
    .object({
      new_issue: z.object({ html_url: z.string().nullish() }).nullish(),
    })
    .nullish(),
  sender: login,
});

/**
 * `repository`: only `renamed` and `transferred` are acted on (the repository moves to its new
 * name). Where it came from (`changes`) is kept for the record only: Fixloop moves each user's
 * rows from the name it stored, which also covers renames it never heard of.
 */
export const RepositoryEvent = z.object({
  action: z.string(),
  repository: RepositoryLocation,
  changes: z
    .object({
      repository: z.object({ name: z.object({ from: z.string().max(100) }) }).nullish(),
      owner: z.object({ from: z.object({ user: login, organization: login }).partial() }).nullish(),
    })
    .nullish(),
  sender: login,
});
