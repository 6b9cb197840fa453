import { execFileSync } from "node:child_process";

/** Reads a file of a stand-in repository straight from its bare git directory. */
export function gitShow(gitDir: string, rev: string, path: string): string {
  return execFileSync("git", ["--git-dir", gitDir, "show", `${rev}:${path}`], { encoding: "utf8" });
}

export function gitTree(gitDir: string, rev: string): string[] {
  return execFileSync("git", ["--git-dir", gitDir, "ls-tree", "-r", "--name-only", rev], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean);
}

export function gitBranches(gitDir: string): string[] {
  return execFileSync("git", ["--git-dir", gitDir, "for-each-ref", "--format=%(refname:short)", "refs/heads"], {
    encoding: "utf8",
  })
    .split("\n")
    .filter(Boolean);
}
