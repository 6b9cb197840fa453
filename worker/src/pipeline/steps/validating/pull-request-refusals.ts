import { type FileChange, deniedChangeReason } from "@fixloop/contract";
import { PullRequestError } from "../../../pull-requests/pull-requests.errors";
import {
  assertChangeAllowed,
  assertNoDirectoryReplaced,
  assertNoSymlinks,
  type PullRequestLimits,
  type TreeEntryLike,
} from "../../../pull-requests/pull-requests.limits";

export interface Refusal {
  path: string;
  reason: string;
}

/** The base tree as the pull-request checks read it: files (links marked) and every directory above them. */
export function baseTree(allPaths: string[], links: readonly string[]): Map<string, TreeEntryLike> {
  const linked = new Set(links);
  const tree = new Map<string, TreeEntryLike>();
  for (const p of allPaths) {
    tree.set(p, { path: p, type: "blob", mode: linked.has(p) ? "120000" : "100644" });
    const parts = p.split("/");
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join("/");
      if (!tree.has(dir)) tree.set(dir, { path: dir, type: "tree", mode: "040000" });
    }
  }
  return tree;
}

const refusal = (path: string, check: () => void, skip = (_e: PullRequestError) => false): Refusal[] => {
  try {
    check();
    return [];
  } catch (err) {
    if (!(err instanceof PullRequestError)) throw err;
    return skip(err) ? [] : [{ path, reason: err.detail }];
  }
};

/**
 * What the pull-request job would refuse about this change, with the job's own reasons, found
 * before approval: writes through symbolic links, a file over a directory or the reverse, and the
 * size limits (denied paths are the assessment's own check).
 */
export function pullRequestRefusals(
  files: FileChange[],
  tree: Map<string, TreeEntryLike>,
  limits: PullRequestLimits,
): Refusal[] {
  const perFile = files.flatMap((f) =>
    refusal(f.filename, () => {
      assertNoSymlinks([f], tree);
      assertNoDirectoryReplaced([f], tree);
    }),
  );
  // A denied path is the assessment's own finding already; here what concerns the change as a whole.
  const denied = files.some((f) => deniedChangeReason(f));
  const whole = refusal(
    files[0]?.filename ?? "",
    () => assertChangeAllowed(files, limits),
    (e) => denied && e.code === "pull_request.path_denied",
  );
  return [...perFile, ...whole];
}
