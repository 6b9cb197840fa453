/** What the stand-in keeps of reviews, review comments and check runs (in state.json). */

export interface ReviewCommentRecord {
  id: number;
  repoId: number;
  number: number;
  reviewId: number;
  body: string;
  path: string;
  line: number;
  side: "LEFT" | "RIGHT";
  commitId: string;
  user: string;
  createdAt: string;
  /** The comment whose thread this one answers (a reply). */
  inReplyTo?: number;
}

export interface ReviewRecord {
  id: number;
  repoId: number;
  number: number;
  body: string;
  state: "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED";
  commitId: string;
  user: string;
  submittedAt: string;
}

export interface CheckRunRecord {
  id: number;
  repoId: number;
  suiteId: number;
  name: string;
  headSha: string;
  headBranch: string;
  conclusion: string;
  title: string | null;
  summary: string | null;
  /** The output's details (often a log excerpt); GitHub allows 65,535 characters. */
  text?: string | null;
  startedAt: string;
  completedAt: string;
  /** A GitHub Actions job (app `github-actions`; the check run's id is the job's): its log, served by the jobs API. */
  actions?: {
    runId: number;
    log: string;
    /** Where the log endpoint redirects instead of the stand-in's own log host (a test of a foreign host). */
    logUrl?: string;
  };
}
