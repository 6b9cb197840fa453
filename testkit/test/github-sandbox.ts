import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Octokit } from "@octokit/rest";
import { startGithubSandbox, type GithubSandbox } from "../src/sandbox/github/index";

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** A stand-in on a free port over a fresh temporary data directory (used by the tests in this folder). */
export class TestSandbox {
  private constructor(
    public sandbox: GithubSandbox,
    readonly dataDir: string,
  ) {}

  static async start(): Promise<TestSandbox> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "gh-sandbox-"));
    return new TestSandbox(await startGithubSandbox({ dataDir: dir }), dir);
  }

  /** An Octokit client for `login` with exactly `scopes`, pointed at the stand-in. */
  octokit(login: string, scopes: string[]): Octokit {
    return new Octokit({ auth: this.sandbox.control.issueToken(login, scopes), baseUrl: this.sandbox.url, log: quiet });
  }

  /** Runs `git --git-dir <repo> ...` and returns trimmed stdout. */
  git(owner: string, repo: string, ...args: string[]): string {
    return execFileSync("git", ["--git-dir", this.sandbox.control.gitDir(owner, repo), ...args], {
      encoding: "utf8",
    }).trim();
  }

  /** Stops the server and starts a new one over the same data directory. */
  async restart(): Promise<void> {
    await this.sandbox.stop();
    this.sandbox = await startGithubSandbox({ dataDir: this.dataDir });
  }

  async stop(): Promise<void> {
    await this.sandbox.stop();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}

export const startTestSandbox = (): Promise<TestSandbox> => TestSandbox.start();

/** Applies search/replace edits the way a patch consumer would; each search must occur exactly once. */
export function applyEdits(content: string, edits: Array<{ search: string; replace: string }>): string {
  return edits.reduce((text, edit) => {
    const first = text.indexOf(edit.search);
    if (first === -1 || text.indexOf(edit.search, first + 1) !== -1)
      throw new Error(`search must occur exactly once: ${JSON.stringify(edit.search)}`);
    return text.slice(0, first) + edit.replace + text.slice(first + edit.search.length);
  }, content);
}
