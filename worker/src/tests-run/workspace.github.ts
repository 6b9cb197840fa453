import fs from "node:fs/promises";
import path from "node:path";
import type { GithubClient } from "@fixloop/runtime";

export class WorkspaceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WorkspaceError";
  }
}

export interface FetchLimits {
  /** Largest repository (sum of blob sizes) we materialise. */
  maxBytes: number;
  concurrency?: number;
  signal?: AbortSignal;
}

/**
 * Writes owner/repo@commit into `dir` through the git trees and blobs API (the token travels
 * only in the client's Authorization header: no .git directory, no remote URL, nothing on disk).
 * Symlinks and submodules are left out: a link could point outside the workspace.
 */
export async function fetchTreeInto(
  gh: GithubClient,
  owner: string,
  repo: string,
  commit: string,
  dir: string,
  limits: FetchLimits,
): Promise<{ files: number; bytes: number; skipped: number }> {
  const request = { signal: limits.signal };
  const { data: tree } = await gh.rest.git.getTree({ owner, repo, tree_sha: commit, recursive: "1", request });
  if (tree.truncated) throw new WorkspaceError("The repository tree is too large to materialise for tests");
  const blobs = tree.tree.filter(
    (e) => e.type === "blob" && e.path && e.sha && (e.mode === "100644" || e.mode === "100755"),
  );
  const bytes = blobs.reduce((s, e) => s + (e.size ?? 0), 0);
  if (bytes > limits.maxBytes)
    throw new WorkspaceError(
      `The repository is ${Math.round(bytes / 1048576)} MiB, above the ${Math.round(limits.maxBytes / 1048576)} MiB workspace limit`,
    );
  const skipped = tree.tree.filter((e) => e.type !== "tree").length - blobs.length;
  let next = 0;
  const worker = async () => {
    while (next < blobs.length) {
      const e = blobs[next++];
      if (!e?.path || !e.sha) continue;
      const rel = path.posix.normalize(e.path);
      if (path.posix.isAbsolute(rel) || rel.startsWith("..") || rel.split("/").includes(".git")) continue;
      const { data } = await gh.rest.git.getBlob({ owner, repo, file_sha: e.sha, request });
      const target = path.join(dir, rel);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, Buffer.from(data.content, data.encoding === "base64" ? "base64" : "utf8"), {
        mode: e.mode === "100755" ? 0o755 : 0o644,
      });
    }
  };
  await Promise.all(Array.from({ length: limits.concurrency ?? 8 }, worker));
  return { files: blobs.length, bytes, skipped };
}
