import type { GithubClient } from "@fixloop/runtime";
import { downloadTreeInto } from "../repo-files/repo-archive";

export interface FetchLimits {
  /** Largest repository (sum of file sizes) we materialise. */
  maxBytes: number;
  signal?: AbortSignal;
}

/**
 * Writes owner/repo@commit into `dir` in one transfer (the tarball endpoint; the token travels only
 * in the client's Authorization header: no .git directory, no remote URL, nothing on disk).
 * Symlinks, hard links and submodules are left out: a link could point outside the workspace.
 */
export async function fetchTreeInto(
  gh: GithubClient,
  owner: string,
  repo: string,
  commit: string,
  dir: string,
  limits: FetchLimits,
): Promise<{ files: number; bytes: number; skipped: number }> {
  const listed = await downloadTreeInto(gh, owner, repo, commit, dir, limits.maxBytes, limits.signal);
  const written = listed.filter((f) => !f.link);
  return {
    files: written.length,
    bytes: written.reduce((s, f) => s + f.size, 0),
    skipped: listed.length - written.length,
  };
}
