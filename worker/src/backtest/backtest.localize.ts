import type { Redis } from "ioredis";
import type { GithubClient } from "@fixloop/runtime";
import { BACKTEST_TOP, type StepInput } from "@fixloop/contract";
import { analyzing } from "../pipeline/steps/analyzing/analyzing";
import { context } from "../pipeline/steps/context/context";
import { readBlob, treeFiles, type RepoSnapshot } from "../pipeline/steps/context/repo-tree";
import { repoFiles, type RepoFilesCache } from "../repo-files/repo-files";
import { dependencies } from "../pipeline/steps/dependencies/dependencies";

export interface LocalizeAtInput {
  gh: GithubClient;
  redis: Redis;
  prefix: string;
  owner: string;
  repo: string;
  sha: string;
  title: string;
  body: string;
  maxFiles: number;
  signal: AbortSignal;
  /** The worker's tree cache: the files come from one tarball transfer instead of the trees API. */
  local?: RepoFilesCache;
}

/** The repository's file list at one commit (the recursive git tree, as step 2 reads a branch head). */
async function snapshotAt(i: LocalizeAtInput): Promise<RepoSnapshot> {
  const request = { signal: i.signal };
  const { data: commit } = await i.gh.rest.git.getCommit({ owner: i.owner, repo: i.repo, commit_sha: i.sha, request });
  const { files, truncated } = i.local
    ? { files: (await repoFiles(i.local, i.gh, i.owner, i.repo, i.sha, i.signal)).files, truncated: false }
    : await treeFiles(i.gh, i.owner, i.repo, commit.tree.sha, i.signal);
  return {
    owner: i.owner,
    repo: i.repo,
    defaultBranch: i.sha,
    commitSha: i.sha,
    treeSha: commit.tree.sha,
    truncated,
    files,
  };
}

/** What the pipeline's steps 1–3 answered at one commit: a backtest's solve starts from them. */
export interface LocalizedAt {
  /** The top files, best first. */
  ranked: string[];
  steps: StepInput<"generating">;
}

/**
 * The pipeline's steps 1–3 without a model: the issue text cleaned as step 1 does, the tree at
 * `sha` filtered as step 2 does, and step 3's localizer (no embedding or model rerank: free).
 */
export async function localizeAt(i: LocalizeAtInput): Promise<LocalizedAt> {
  const { output: issue } = await analyzing({ title: i.title, body: i.body, labels: [] });
  const { output: ctx } = context(await snapshotAt(i));
  const r = await dependencies({
    context: ctx,
    title: issue.title,
    body: issue.body,
    readBlob: (sha) => readBlob(i.gh, i.redis, i.prefix, i.owner, i.repo, sha, i.signal),
    maxFiles: i.maxFiles,
  });
  return {
    ranked: r.output.files.slice(0, BACKTEST_TOP).map((f) => f.path),
    steps: { analyzing: issue, context: ctx, dependencies: r.output },
  };
}
