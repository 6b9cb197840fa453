export interface SeedUser {
  id: number;
  login: string;
  name: string;
  email: string;
  bio: string | null;
  company: string | null;
  location: string | null;
  createdAt: string;
}

export interface SeedCommit {
  message: string;
  date: string;
  /** Path → content; null deletes the path. The first commit holds the whole tree. */
  files: Record<string, string | null>;
}

export interface SeedIssue {
  title: string;
  body: string;
  labels: string[];
  user: string;
  createdAt: string;
  state: "open" | "closed";
  stateReason?: "completed" | "not_planned";
  closedAt?: string;
  comments?: number;
  assignees?: string[];
  locked?: boolean;
}

/** A pull request from a branch of the same repository; numbered after the issues. */
export interface SeedPull {
  title: string;
  body: string;
  user: string;
  branch: string;
  createdAt: string;
  /** Files changed on the branch, on top of the default branch. */
  files: Record<string, string>;
}

/**
 * A closed pull request of the repository's past, numbered after the open ones. Its base commit
 * holds the default branch's files with `before` applied (null: the file did not exist yet); its
 * head holds the default branch's versions, so it changed exactly the paths of `before`.
 */
export interface SeedClosedPull {
  title: string;
  body: string;
  user: string;
  branch: string;
  createdAt: string;
  closedAt: string;
  /** Merged (a fix that landed) or closed without merging. */
  merged: boolean;
  before: Record<string, string | null>;
}

/** A branch besides the default one: one commit on top of the default branch's head. */
export interface SeedBranch {
  name: string;
  message: string;
  date: string;
  /** Files the branch adds or changes. */
  files: Record<string, string>;
}

export interface SeedRepo {
  owner: string;
  name: string;
  description: string;
  language: string;
  topics: string[];
  private: boolean;
  defaultBranch: string;
  createdAt: string;
  /** Paths committed with mode 100755. */
  executables?: string[];
  commits: SeedCommit[];
  /** Numbered 1..n in this order. */
  issues: SeedIssue[];
  /** Names of tests that fail on the seeded default branch: each reproduces an open issue and its known fix turns it green. */
  failingTests?: string[];
  pulls?: SeedPull[];
  /** Closed and merged pull requests, numbered after `pulls`; their closing references name closed issues. */
  closedPulls?: SeedClosedPull[];
  branches?: SeedBranch[];
}

export interface SeededFix {
  /** `owner/name` */
  repo: string;
  issueNumber: number;
  title: string;
  analysis: string;
  proposedSolution: string;
  files: Array<{
    filename: string;
    action: "modify" | "create" | "delete";
    edits?: Array<{ search: string; replace: string }>;
    content?: string;
  }>;
  /**
   * The scripted model's first answer when it differs from the known fix: it breaks a test that passes
   * on the base tree, so the repair round (whose prompt carries the failing tests) gets the known fix.
   */
  firstAttempt?: Pick<SeededFix, "analysis" | "proposedSolution" | "files">;
  /** The model's reproduction test for the issue: a new test file that fails on the base tree and passes with the fix. */
  reproduction?: { filename: string; content: string };
}

/**
 * The repair round's answer to a fix with a first attempt: the pipeline shows the model its first
 * attempt's files, so each edit of the fix is made on what the first attempt left there.
 */
export function repairFiles(fix: SeededFix): SeededFix["files"] {
  const first = new Map((fix.firstAttempt?.files ?? []).map((f) => [f.filename, f]));
  return fix.files.map((file) => {
    const earlier = first.get(file.filename)?.edits ?? [];
    if (file.action !== "modify" || earlier.length === 0) return file;
    return {
      ...file,
      edits: (file.edits ?? []).map((e) => ({
        search: earlier.find((x) => x.search === e.search)?.replace ?? e.search,
        replace: e.replace,
      })),
    };
  });
}

/** The labels GitHub creates in every new repository. */
export const DEFAULT_LABELS = [
  { name: "bug", color: "d73a4a", description: "Something isn't working" },
  { name: "documentation", color: "0075ca", description: "Improvements or additions to documentation" },
  { name: "duplicate", color: "cfd3d7", description: "This issue or pull request already exists" },
  { name: "enhancement", color: "a2eeef", description: "New feature or request" },
  { name: "good first issue", color: "7057ff", description: "Good for newcomers" },
  { name: "help wanted", color: "008672", description: "Extra attention is needed" },
  { name: "invalid", color: "e4e669", description: "This doesn't seem right" },
  { name: "question", color: "d876e3", description: "Further information is requested" },
  { name: "wontfix", color: "ffffff", description: "This will not be worked on" },
];

/** The files of a seed repository after all its commits. */
export function seedFiles(repo: SeedRepo): Record<string, string> {
  const files: Record<string, string> = {};
  for (const commit of repo.commits) {
    for (const [path, content] of Object.entries(commit.files)) {
      if (content === null) delete files[path];
      else files[path] = content;
    }
  }
  return files;
}
