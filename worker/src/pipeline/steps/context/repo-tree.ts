import type { Redis } from "ioredis";
import type { GithubClient } from "@fixloop/runtime";
import type { TreeFile } from "@fixloop/contract";
import { localBlob } from "../../../repo-files/local-blobs";
import { ArchiveError } from "../../../repo-files/repo-archive.tar";
import { repoFiles, type RepoFilesCache } from "../../../repo-files/repo-files";

export interface RepoSnapshot {
  owner: string;
  repo: string;
  /** The branch the tree was read at: the run's base branch (the default branch unless one was chosen). */
  defaultBranch: string;
  commitSha: string;
  treeSha: string;
  truncated: boolean;
  files: TreeFile[];
}

const TREE_TTL_SECONDS = 24 * 3600;
const BLOB_TTL_SECONDS = 6 * 3600;
/** Blobs above this size are neither cached nor read: they are rarely the code that needs fixing. */
export const MAX_BLOB_BYTES = 512 * 1024;
const MAX_SUBTREE_CALLS = 400;

/**
 * Every file of a tree (git trees API, recursive; per-directory walk when GitHub truncates the
 * answer), with whether each is a symbolic link.
 */
export async function treeFiles(
  gh: GithubClient,
  owner: string,
  repo: string,
  treeSha: string,
  signal: AbortSignal,
): Promise<{ files: TreeFile[]; truncated: boolean }> {
  const { data: tree } = await gh.rest.git.getTree({
    owner,
    repo,
    tree_sha: treeSha,
    recursive: "1",
    request: { signal },
  });
  if (tree.truncated) return { files: await walkTree(gh, owner, repo, treeSha, signal), truncated: true };
  const files = tree.tree
    .filter((e) => e.type === "blob" && e.path && e.sha)
    .map((e) => ({
      path: e.path ?? "",
      sha: e.sha ?? "",
      size: e.size ?? 0,
      ...(e.mode === "120000" && { link: true }),
    }));
  return { files, truncated: false };
}

/**
 * A branch head (the chosen base branch, else the default branch) and its full file list: from the
 * worker's tree cache (one tarball transfer on a miss) when `local` is given, else, or when the
 * repository is above the cache's size limit, from the git trees API (recursive; per-directory
 * walk when truncated).
 */
export async function fetchRepoSnapshot(
  gh: GithubClient,
  redis: Redis,
  prefix: string,
  owner: string,
  repo: string,
  signal: AbortSignal,
  baseBranch?: string,
  local?: RepoFilesCache,
): Promise<RepoSnapshot & { cached: boolean }> {
  const request = { signal };
  const branch = baseBranch ?? (await gh.rest.repos.get({ owner, repo, request })).data.default_branch;
  const { data: ref } = await gh.rest.git.getRef({ owner, repo, ref: `heads/${branch}`, request });
  const commitSha = ref.object.sha;
  const { data: commit } = await gh.rest.git.getCommit({ owner, repo, commit_sha: commitSha, request });
  const treeSha = commit.tree.sha;
  const at = { owner, repo, defaultBranch: branch, commitSha, treeSha, truncated: false };
  if (local) {
    const listed = await repoFiles(local, gh, owner, repo, commitSha, signal).catch((err: unknown) => {
      if (err instanceof ArchiveError) return null; // too large for the cache: listed through the API
      throw err;
    });
    if (listed) return { ...at, files: listed.files, cached: listed.cached };
  }
  // v2: entries say whether they are symbolic links.
  const key = `${prefix}:tree2:${owner.toLowerCase()}/${repo.toLowerCase()}:${treeSha}`;
  const hit = await redis.get(key);
  if (hit) return { ...(JSON.parse(hit) as RepoSnapshot), cached: true };

  const { files, truncated } = await treeFiles(gh, owner, repo, treeSha, signal);
  const snapshot: RepoSnapshot = {
    owner,
    repo,
    defaultBranch: branch,
    commitSha,
    treeSha,
    truncated,
    files,
  };
  await redis.set(key, JSON.stringify(snapshot), "EX", TREE_TTL_SECONDS);
  return { ...snapshot, cached: false };
}

async function walkTree(
  gh: GithubClient,
  owner: string,
  repo: string,
  rootSha: string,
  signal: AbortSignal,
): Promise<TreeFile[]> {
  const files: TreeFile[] = [];
  const queue: { sha: string; dir: string }[] = [{ sha: rootSha, dir: "" }];
  let calls = 0;
  while (queue.length && calls < MAX_SUBTREE_CALLS) {
    const next = queue.shift();
    if (!next) break;
    calls++;
    const { data } = await gh.rest.git.getTree({ owner, repo, tree_sha: next.sha, request: { signal } });
    for (const e of data.tree) {
      if (!e.path || !e.sha) continue;
      const p = next.dir ? `${next.dir}/${e.path}` : e.path;
      if (e.type === "tree") queue.push({ sha: e.sha, dir: p });
      else if (e.type === "blob")
        files.push({ path: p, sha: e.sha, size: e.size ?? 0, ...(e.mode === "120000" && { link: true }) });
    }
  }
  return files;
}

/**
 * Reads a blob's text: from a tree in the worker's on-disk cache when one holds it, else through
 * the Redis cache keyed by its SHA (content-addressed, so never stale), else the blobs API.
 */
export async function readBlob(
  gh: GithubClient,
  redis: Redis,
  prefix: string,
  owner: string,
  repo: string,
  sha: string,
  signal?: AbortSignal,
): Promise<string> {
  const onDisk = await localBlob(sha);
  if (onDisk !== null) return onDisk;
  const key = `${prefix}:blob:${sha}`;
  const hit = await redis.get(key);
  if (hit !== null) {
    void redis.expire(key, BLOB_TTL_SECONDS);
    return hit;
  }
  const { data } = await gh.rest.git.getBlob({ owner, repo, file_sha: sha, request: { signal } });
  const text = Buffer.from(data.content, data.encoding === "base64" ? "base64" : "utf8").toString("utf8");
  if (text.length <= MAX_BLOB_BYTES) await redis.set(key, text, "EX", BLOB_TTL_SECONDS);
  return text;
}
