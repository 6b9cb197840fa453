import type { GithubClient } from "@fixloop/runtime";
import type { TreeEntryLike } from "./pull-requests.limits";

export interface RepoRef {
  owner: string;
  repo: string;
}

/**
 * The entries of `treeSha` that matter for `paths`: every changed path and each of its parent
 * directories. One recursive read normally; a directory walk when GitHub truncates big trees.
 */
export async function loadTreeEntries(
  gh: GithubClient,
  r: RepoRef,
  treeSha: string,
  paths: string[],
): Promise<Map<string, TreeEntryLike>> {
  const full = await gh.rest.git.getTree({ ...r, tree_sha: treeSha, recursive: "1" });
  const entries = new Map<string, TreeEntryLike>();
  if (!full.data.truncated) {
    for (const e of full.data.tree) if (e.path) entries.set(e.path, e);
    return entries;
  }
  const dirs = new Map<string, string>([["", treeSha]]);
  const wanted = new Set<string>();
  for (const p of paths) {
    const parts = p.split("/");
    for (let i = 1; i < parts.length; i++) wanted.add(parts.slice(0, i).join("/"));
  }
  const ordered = [...wanted].sort((a, b) => a.split("/").length - b.split("/").length);
  const read = async (dir: string, sha: string) => {
    const t = await gh.rest.git.getTree({ ...r, tree_sha: sha });
    for (const e of t.data.tree) {
      const p = dir ? `${dir}/${e.path}` : (e.path ?? "");
      entries.set(p, { ...e, path: p });
      if (e.type === "tree" && e.sha && wanted.has(p)) dirs.set(p, e.sha);
    }
  };
  await read("", treeSha);
  for (const d of ordered) {
    const sha = dirs.get(d);
    if (sha) await read(d, sha);
  }
  return entries;
}

export async function readBlob(gh: GithubClient, r: RepoRef, sha: string): Promise<string> {
  const b = await gh.rest.git.getBlob({ ...r, file_sha: sha });
  return Buffer.from(b.data.content, b.data.encoding === "base64" ? "base64" : "utf8").toString("utf8");
}

export function splitRepo(fullName: string): RepoRef {
  const [owner = "", repo = ""] = fullName.split("/");
  return { owner, repo };
}
