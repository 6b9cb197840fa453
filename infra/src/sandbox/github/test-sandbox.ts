import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Octokit } from "@octokit/rest";
import { startGithubSandbox, type GithubSandbox } from "./index";

export interface TestSandbox {
  sandbox: GithubSandbox;
  dataDir: string;
  /** An Octokit client for `login` with exactly `scopes`, pointed at the stand-in. */
  octokit(login: string, scopes: string[]): Octokit;
  /** Runs `git --git-dir <repo> ...` and returns trimmed stdout. */
  git(owner: string, repo: string, ...args: string[]): string;
  stop(): Promise<void>;
}

/** Starts a stand-in on a free port over a fresh temporary data directory (used by the tests in this folder). */
export async function startTestSandbox(dataDir?: string): Promise<TestSandbox> {
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "gh-sandbox-"));
  const sandbox = await startGithubSandbox({ dataDir: dir });
  return {
    sandbox,
    dataDir: dir,
    octokit: (login, scopes) =>
      new Octokit({ auth: sandbox.control.issueToken(login, scopes), baseUrl: sandbox.url, log: { debug() {}, info() {}, warn() {}, error() {} } }),
    git: (owner, repo, ...args) =>
      execFileSync("git", ["--git-dir", sandbox.control.gitDir(owner, repo), ...args], { encoding: "utf8" }).trim(),
    async stop() {
      await sandbox.stop();
      if (!dataDir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Applies search/replace edits the way a patch consumer would; each search must occur exactly once. */
export function applyEdits(content: string, edits: Array<{ search: string; replace: string }>): string {
  return edits.reduce((text, edit) => {
    const first = text.indexOf(edit.search);
    if (first === -1 || text.indexOf(edit.search, first + 1) !== -1) throw new Error(`search must occur exactly once: ${JSON.stringify(edit.search)}`);
    return text.slice(0, first) + edit.replace + text.slice(first + edit.search.length);
  }, content);
}
