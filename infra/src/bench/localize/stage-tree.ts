import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** A repository at one commit, as a model stage needs it: every path, and the files' blobs and text. */
export interface StageTree {
  paths: string[];
  blobSha(path: string): string | undefined;
  read(path: string): Promise<string>;
}

/**
 * The tree of `commit` in a bare mirror, read with git. The eval materializes the same commit with
 * `git archive` and removes it once its repository is done; reading the few files a stage needs
 * from the mirror keeps the stage pass free of the ~7 GB the whole tune set's trees would take.
 */
export async function mirrorTree(gitDir: string, commit: string): Promise<StageTree> {
  const { stdout } = await run("git", ["--git-dir", gitDir, "ls-tree", "-r", "-z", commit], { maxBuffer: 256 << 20 });
  const blobs = new Map<string, string>();
  for (const entry of stdout.split("\0")) {
    const m = /^\d+ blob ([0-9a-f]+)\t(.+)$/s.exec(entry);
    if (m?.[1] && m[2]) blobs.set(m[2], m[1]);
  }
  return {
    paths: [...blobs.keys()],
    blobSha: (path) => blobs.get(path),
    async read(path) {
      const sha = blobs.get(path);
      if (!sha) throw new Error(`${path} is not in ${commit.slice(0, 7)}`);
      return (await run("git", ["--git-dir", gitDir, "cat-file", "blob", sha], { maxBuffer: 64 << 20 })).stdout;
    },
  };
}
