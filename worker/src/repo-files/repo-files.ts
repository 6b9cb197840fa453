import fs from "node:fs/promises";
import path from "node:path";
import type { GithubClient } from "@fixloop/runtime";
import type { TreeFile } from "@fixloop/contract";
import { baseTree, treeKey, type WorkspaceCache } from "../tests-run/workspace";
import { rememberBlobs } from "./local-blobs";
import { downloadTreeInto } from "./repo-archive";
import { gitBlobSha, type ArchiveFile } from "./repo-archive.tar";

/** The per-worker tree cache and the largest repository it takes. */
export interface RepoFilesCache {
  cache: WorkspaceCache;
  maxBytes: number;
}

/**
 * owner/repo@commit from the worker's on-disk cache (one tarball transfer on a miss), with every
 * file's path, size and git blob sha, as the trees API lists them. Steps 2 and 3 read the same
 * tree the sandbox workspace copies.
 */
export async function repoFiles(
  c: RepoFilesCache,
  gh: GithubClient,
  owner: string,
  repo: string,
  commit: string,
  signal?: AbortSignal,
): Promise<{ dir: string; files: TreeFile[]; cached: boolean }> {
  let built: ArchiveFile[] | null = null;
  const base = await baseTree(c.cache, owner, repo, commit, async (dir) => {
    built = await downloadTreeInto(gh, owner, repo, commit, dir, c.maxBytes, signal);
  });
  const manifest = path.join(c.cache.root, "manifests", `${treeKey(owner, repo, commit)}.json`);
  let files: TreeFile[] | null = built;
  if (files) {
    await fs.mkdir(path.dirname(manifest), { recursive: true });
    await fs.writeFile(manifest, JSON.stringify(files));
  } else {
    files = await fs.readFile(manifest, "utf8").then(
      (s) => JSON.parse(s) as TreeFile[],
      () => null,
    );
    files ??= await listTree(base.dir);
  }
  rememberBlobs(base.dir, files);
  return { dir: base.dir, files, cached: base.cached };
}

/** A cached tree built without a manifest (by the sandbox workspace): its files hashed from disk. */
async function listTree(root: string, rel = ""): Promise<TreeFile[]> {
  const out: TreeFile[] = [];
  for (const e of await fs.readdir(path.join(root, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await listTree(root, p)));
    else if (e.isFile()) {
      const data = await fs.readFile(path.join(root, p));
      out.push({ path: p, sha: gitBlobSha(data), size: data.length });
    }
  }
  return out;
}
