import type { ParsedCommit, TreeEntry } from "./git-store";
import type { RepoRecord } from "./state";
import { nodeId, type Urls } from "./urls";

const api = (repo: RepoRecord, urls: Urls) => `${urls.api}/repos/${repo.owner}/${repo.name}`;

const objectPath: Record<string, string> = { commit: "commits", tree: "trees", blob: "blobs", tag: "tags" };

/** A stable pseudo node id for git objects, derived from the sha. */
const gitNodeId = (kind: string, sha: string) => nodeId(kind, parseInt(sha.slice(0, 12), 16));

export function gitRef(repo: RepoRecord, urls: Urls, ref: { ref: string; sha: string; type: string }) {
  return {
    ref: ref.ref,
    node_id: Buffer.from(`04:Ref${repo.id}:${ref.ref}`).toString("base64"),
    url: `${api(repo, urls)}/git/${ref.ref}`,
    object: {
      sha: ref.sha,
      type: ref.type,
      url: `${api(repo, urls)}/git/${objectPath[ref.type] ?? "commits"}/${ref.sha}`,
    },
  };
}

export function gitCommit(repo: RepoRecord, urls: Urls, c: ParsedCommit) {
  const base = api(repo, urls);
  const html = `${urls.html}/${repo.owner}/${repo.name}/commit`;
  return {
    sha: c.sha,
    node_id: gitNodeId("Commit", c.sha),
    url: `${base}/git/commits/${c.sha}`,
    html_url: `${html}/${c.sha}`,
    author: c.author,
    committer: c.committer,
    tree: { sha: c.tree, url: `${base}/git/trees/${c.tree}` },
    message: c.message,
    parents: c.parents.map((p) => ({ sha: p, url: `${base}/git/commits/${p}`, html_url: `${html}/${p}` })),
    verification: { verified: false, reason: "unsigned", signature: null, payload: null, verified_at: null },
  };
}

export function gitTree(repo: RepoRecord, urls: Urls, sha: string, entries: TreeEntry[], truncated: boolean) {
  const base = api(repo, urls);
  return {
    sha,
    url: `${base}/git/trees/${sha}`,
    tree: entries.map((e) => ({
      path: e.path,
      mode: e.mode,
      type: e.type,
      sha: e.sha,
      ...(e.type === "blob" ? { size: e.size ?? 0 } : {}),
      url: `${base}/git/${objectPath[e.type] ?? "blobs"}/${e.sha}`,
    })),
    truncated,
  };
}

export function gitBlob(repo: RepoRecord, urls: Urls, sha: string, content: string, size: number) {
  return {
    sha,
    node_id: gitNodeId("Blob", sha),
    size,
    url: `${api(repo, urls)}/git/blobs/${sha}`,
    content,
    encoding: "base64",
  };
}
