import type { GithubClient } from "@fixloop/runtime";
import { ArchiveError, extractTarball, type ArchiveFile } from "./repo-archive.tar";

/**
 * owner/repo@commit in one transfer: GitHub's tarball endpoint (one REST request, answered 302 to
 * codeload, which the client follows). The token travels only in the client's Authorization
 * header; the redirect URL carries a short-lived codeload token of its own and is never logged or
 * kept. Unpacked into `dir` under the walls of `extractTarball`.
 */
export async function downloadTreeInto(
  gh: GithubClient,
  owner: string,
  repo: string,
  commit: string,
  dir: string,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<ArchiveFile[]> {
  const { data } = await gh.rest.repos.downloadTarballArchive({ owner, repo, ref: commit, request: { signal } });
  if (!(data instanceof ArrayBuffer)) throw new ArchiveError("GitHub answered the tarball request without an archive");
  return extractTarball(Buffer.from(data), dir, maxBytes);
}
