import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseCommit, parseTreeLine, type GitIdentity, type ParsedCommit, type TreeEntry } from "./git-parse";

export type { GitIdentity, ParsedCommit, TreeEntry } from "./git-parse";

export class GitCommandError extends Error {
  constructor(
    readonly args: string[],
    readonly code: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.join(" ")} failed (${code}): ${stderr.trim()}`);
  }
}

export interface TreeChange {
  path: string;
  mode: string;
  type: "blob" | "tree" | "commit";
  /** null deletes the path. */
  sha?: string | null;
  content?: string;
}

export const ZERO_SHA = "0".repeat(40);

const BASE_ENV: Record<string, string> = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: os.devNull,
  GIT_TERMINAL_PROMPT: "0",
  GIT_COMMITTER_NAME: "GitHub",
  GIT_COMMITTER_EMAIL: "noreply@github.com",
};

/** Runs the `git` CLI against bare repositories laid out as `<root>/<owner>/<name>.git`. */
export class GitStore {
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(readonly root: string) {}

  dir(owner: string, name: string): string {
    return path.join(this.root, owner.toLowerCase(), `${name.toLowerCase()}.git`);
  }

  async run(
    gitDir: string | null,
    args: string[],
    opts: { input?: Buffer | string; env?: Record<string, string> } = {},
  ): Promise<Buffer> {
    const full = gitDir ? ["--git-dir", gitDir, ...args] : args;
    const env: Record<string, string | undefined> = { ...process.env, ...BASE_ENV, ...opts.env };
    delete env.GIT_DIR;
    delete env.GIT_WORK_TREE;
    if (!opts.env?.GIT_INDEX_FILE) delete env.GIT_INDEX_FILE;
    return new Promise((resolve, reject) => {
      const child = spawn("git", full, { env, stdio: ["pipe", "pipe", "pipe"] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      child.stdout.on("data", (b: Buffer) => out.push(b));
      child.stderr.on("data", (b: Buffer) => err.push(b));
      child.on("error", reject);
      child.on("close", (code) => {
        if (code === 0) resolve(Buffer.concat(out));
        else reject(new GitCommandError(args, code, Buffer.concat(err).toString("utf8")));
      });
      child.stdin.on("error", () => undefined);
      child.stdin.end(opts.input ?? "");
    });
  }

  private async text(gitDir: string, args: string[], input?: string, env?: Record<string, string>): Promise<string> {
    return (await this.run(gitDir, args, { input, env })).toString("utf8").trim();
  }

  /** Serialises async work per key (one repository's writes). */
  async lock<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(key) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(fn);
    this.locks.set(key, next);
    try {
      return await next;
    } finally {
      if (this.locks.get(key) === next) this.locks.delete(key);
    }
  }

  async initBare(gitDir: string, defaultBranch: string): Promise<void> {
    fs.mkdirSync(path.dirname(gitDir), { recursive: true });
    await this.run(null, ["init", "--quiet", "--bare", `--initial-branch=${defaultBranch}`, gitDir]);
  }

  async cloneBare(source: string, target: string): Promise<void> {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    await this.run(null, ["clone", "--quiet", "--bare", "--no-hardlinks", source, target]);
  }

  async hashBlob(gitDir: string, content: Buffer): Promise<string> {
    return (await this.run(gitDir, ["hash-object", "-w", "--stdin"], { input: content })).toString("utf8").trim();
  }

  async objectType(gitDir: string, sha: string): Promise<string | null> {
    if (!/^[0-9a-f]{40}$/i.test(sha)) return null;
    try {
      return await this.text(gitDir, ["cat-file", "-t", sha]);
    } catch {
      return null;
    }
  }

  async readBlob(gitDir: string, sha: string): Promise<Buffer> {
    return this.run(gitDir, ["cat-file", "blob", sha]);
  }

  async readCommit(gitDir: string, sha: string): Promise<ParsedCommit> {
    const raw = await this.text(gitDir, ["cat-file", "commit", sha]);
    return parseCommit(sha, raw);
  }

  /** `treeish` may be a tree or commit sha, or `<rev>:<path>`. */
  async lsTree(gitDir: string, treeish: string, recursive = false): Promise<TreeEntry[]> {
    const args = ["ls-tree", "-l", "-z", ...(recursive ? ["-r", "-t"] : []), treeish];
    const raw = (await this.run(gitDir, args)).toString("utf8");
    return raw.split("\0").filter(Boolean).map(parseTreeLine);
  }

  /** The tree entry at exactly `path` in `commit`, or null. */
  async entryAt(gitDir: string, commit: string, path: string): Promise<TreeEntry | null> {
    const raw = (await this.run(gitDir, ["ls-tree", "-l", "-z", "--full-tree", commit, "--", path])).toString("utf8");
    const entries = raw.split("\0").filter(Boolean).map(parseTreeLine);
    return entries.find((e) => e.path === path) ?? null;
  }

  async resolve(gitDir: string, rev: string): Promise<string | null> {
    try {
      return await this.text(gitDir, ["rev-parse", "--verify", "--quiet", `${rev}^{commit}`]);
    } catch {
      return null;
    }
  }

  async refs(gitDir: string, prefix = "refs/"): Promise<Array<{ ref: string; sha: string; type: string }>> {
    const out = await this.text(gitDir, ["for-each-ref", "--format=%(refname) %(objectname) %(objecttype)", prefix]);
    return out
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [ref = "", sha = "", type = ""] = line.split(" ");
        return { ref, sha, type };
      })
      .filter(
        (r) => r.ref.startsWith("refs/heads/") || r.ref.startsWith("refs/tags/") || r.ref.startsWith("refs/pull/"),
      );
  }

  async updateRef(gitDir: string, ref: string, sha: string, oldSha?: string): Promise<void> {
    await this.run(gitDir, ["update-ref", ref, sha, ...(oldSha ? [oldSha] : [])]);
  }

  async deleteRef(gitDir: string, ref: string): Promise<void> {
    await this.run(gitDir, ["update-ref", "-d", ref]);
  }

  async isAncestor(gitDir: string, ancestor: string, descendant: string): Promise<boolean> {
    try {
      await this.run(gitDir, ["merge-base", "--is-ancestor", ancestor, descendant]);
      return true;
    } catch (error) {
      if (error instanceof GitCommandError && error.code === 1) return false;
      throw error;
    }
  }

  async fetch(gitDir: string, sourceDir: string, refspec: string): Promise<void> {
    await this.run(gitDir, ["fetch", "--quiet", "--no-tags", sourceDir, refspec]);
  }

  async commitTree(
    gitDir: string,
    opts: { tree: string; parents: string[]; message: string; author: GitIdentity; committer?: GitIdentity },
  ): Promise<string> {
    const committer = opts.committer ?? opts.author;
    const env: Record<string, string> = {
      GIT_AUTHOR_NAME: opts.author.name,
      GIT_AUTHOR_EMAIL: opts.author.email,
      GIT_COMMITTER_NAME: committer.name,
      GIT_COMMITTER_EMAIL: committer.email,
    };
    if (opts.author.date) env.GIT_AUTHOR_DATE = opts.author.date;
    if (committer.date) env.GIT_COMMITTER_DATE = committer.date;
    const args = ["commit-tree", opts.tree, ...opts.parents.flatMap((p) => ["-p", p])];
    return this.text(gitDir, args, opts.message, env);
  }

  /** Builds a tree from `base` (or empty) plus changes, through a throwaway index file. */
  async writeTree(gitDir: string, base: string | null, changes: TreeChange[]): Promise<string> {
    const index = path.join(os.tmpdir(), `gh-sandbox-index-${process.pid}-${Math.random().toString(36).slice(2)}`);
    const env = { GIT_INDEX_FILE: index };
    try {
      await this.run(gitDir, base ? ["read-tree", base] : ["read-tree", "--empty"], { env });
      // --replace resolves file/directory conflicts, so only deletions and whole subtrees need explicit removal
      let pending: string[] = [];
      const flush = async () => {
        if (pending.length === 0) return;
        await this.run(gitDir, ["update-index", "--add", "--replace", "-z", "--index-info"], {
          env,
          input: pending.join("\0") + "\0",
        });
        pending = [];
      };
      for (const change of changes) {
        const target = change.path.replace(/^\/+|\/+$/g, "");
        if (change.sha === null || change.type === "tree") {
          await flush();
          await this.removePath(gitDir, env, target);
        }
        if (change.sha === null) continue;
        if (change.type === "tree" && change.sha) {
          const entries = await this.lsTree(gitDir, change.sha, true);
          pending.push(
            ...entries.filter((e) => e.type !== "tree").map((e) => `${e.mode} ${e.sha}\t${target}/${e.path}`),
          );
          continue;
        }
        const sha =
          change.content !== undefined ? await this.hashBlob(gitDir, Buffer.from(change.content, "utf8")) : change.sha;
        pending.push(`${change.mode} ${sha}\t${target}`);
      }
      await flush();
      return await this.text(gitDir, ["write-tree"], undefined, env);
    } finally {
      fs.rmSync(index, { force: true });
    }
  }

  private async removePath(gitDir: string, env: Record<string, string>, target: string): Promise<void> {
    const listed = (await this.run(gitDir, ["ls-files", "-z"], { env })).toString("utf8").split("\0");
    const doomed = listed.filter((p) => p === target || p.startsWith(`${target}/`));
    if (doomed.length === 0) return;
    const lines = doomed.map((p) => `0 ${ZERO_SHA}\t${p}`).join("\0") + "\0";
    await this.run(gitDir, ["update-index", "-z", "--index-info"], { env, input: lines });
  }

  /** Three-way merge of two commits into a tree; `clean` is false on conflicts. */
  async mergeTree(gitDir: string, ours: string, theirs: string): Promise<{ tree: string; clean: boolean }> {
    try {
      const tree = await this.text(gitDir, ["merge-tree", "--write-tree", "--no-messages", ours, theirs]);
      return { tree: tree.split("\n")[0] ?? "", clean: true };
    } catch (error) {
      if (error instanceof GitCommandError && error.code === 1) return { tree: "", clean: false };
      throw error;
    }
  }

  async countCommits(gitDir: string, base: string, head: string): Promise<number> {
    return Number(await this.text(gitDir, ["rev-list", "--count", `${base}..${head}`]));
  }

  async mergeBase(gitDir: string, a: string, b: string): Promise<string | null> {
    try {
      return await this.text(gitDir, ["merge-base", a, b]);
    } catch {
      return null;
    }
  }

  /** Unified diff between two commits of one repository (the pull-request page shows it). */
  async diff(gitDir: string, base: string, head: string): Promise<string> {
    return this.text(gitDir, ["diff", base, head]);
  }

  async diffStat(
    gitDir: string,
    base: string,
    head: string,
  ): Promise<{ additions: number; deletions: number; changedFiles: number }> {
    const out = await this.text(gitDir, ["diff", "--numstat", base, head]);
    const stat = { additions: 0, deletions: 0, changedFiles: 0 };
    for (const line of out.split("\n").filter(Boolean)) {
      const [add = "0", del = "0"] = line.split("\t");
      stat.additions += Number(add) || 0;
      stat.deletions += Number(del) || 0;
      stat.changedFiles += 1;
    }
    return stat;
  }
}
