import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGithubClient, type GithubClient } from "@fixloop/runtime";
import { startTestSandbox, type TestSandbox } from "@fixloop/testkit";
import { fetchRepoSnapshot, readBlob } from "../pipeline/steps/context/repo-tree";
import { baseTree, checkout } from "../tests-run/workspace";
import { fetchTreeInto } from "../tests-run/workspace.github";
import { repoFiles } from "./repo-files";

const FILES = 2000;
let t: TestSandbox;
let gh: GithubClient;
let token: string;
let root: string;
let commit: string;

/** Pushes a tree of FILES small modules (plus a nested package) to octocat/big on the stand-in. */
function pushBigTree(): string {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "big-"));
  const git = (...a: string[]) => execFileSync("git", ["-C", work, ...a], { encoding: "utf8" }).trim();
  for (let i = 0; i < FILES; i++) {
    const d = path.join(work, "pkg", `m${i % 40}`);
    fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(path.join(d, `f${i}.py`), `def f${i}():\n    return ${i}\n`);
  }
  git("init", "-q", "-b", "main");
  git("add", ".");
  git("-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "big");
  git("push", "-q", "--force", t.sandbox.control.gitDir("octocat", "big"), "main:main");
  const sha = git("rev-parse", "HEAD");
  fs.rmSync(work, { recursive: true, force: true });
  return sha;
}

beforeAll(async () => {
  t = await startTestSandbox();
  await t.sandbox.control.createRepository("octocat", "big", { private: true });
  commit = pushBigTree();
  token = t.sandbox.control.issueToken("octocat", ["repo"]);
  gh = createGithubClient({ baseUrl: t.sandbox.url, token });
  root = fs.mkdtempSync(path.join(os.tmpdir(), "repo-files-"));
});
afterAll(async () => {
  await t.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

const restCalls = () => t.sandbox.control.requestLog.filter((r) => !r.path.startsWith("/_codeload/"));

describe("repository content in one transfer", () => {
  it(`lists and reads a ${FILES}-file tree in four REST requests, with no abort-listener pile-up`, async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on("warning", onWarning);
    t.sandbox.control.clearRequestLog();
    const signal = new AbortController().signal;
    const local = { cache: { root, maxBytes: 64 * 1024 * 1024 }, maxBytes: 16 * 1024 * 1024 };
    try {
      const snap = await fetchRepoSnapshot(gh, null as never, "p", "octocat", "big", signal, undefined, local);
      expect(snap.commitSha).toBe(commit);
      const py = snap.files.filter((f) => f.path.endsWith(".py"));
      expect(py).toHaveLength(FILES);
      // Step 3 reads every file: from the cached tree, not the blobs API (no Redis needed either).
      const texts = await Promise.all(py.map((f) => readBlob(gh, null as never, "p", "octocat", "big", f.sha, signal)));
      expect(texts.filter((s, i) => s.includes(`return ${py[i]?.path.match(/f(\d+)\.py$/)?.[1]}`))).toHaveLength(FILES);
      expect(restCalls().map((r) => r.path.replace(/\?.*/, ""))).toEqual([
        "/repos/octocat/big",
        "/repos/octocat/big/git/ref/heads%2Fmain",
        `/repos/octocat/big/git/commits/${commit}`,
        `/repos/octocat/big/tarball/${commit}`,
      ]);
      // Same shas as GitHub's trees API.
      const { data } = await gh.rest.git.getTree({ owner: "octocat", repo: "big", tree_sha: commit, recursive: "1" });
      const api = Object.fromEntries(data.tree.filter((e) => e.type === "blob").map((e) => [e.path, e.sha]));
      expect(Object.fromEntries(snap.files.map((f) => [f.path, f.sha]))).toEqual(api);
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
  });

  it("the sandbox workspace copies the tree step 2 cached: no request at all, and no token on disk", async () => {
    const cache = { root, maxBytes: 64 * 1024 * 1024 };
    t.sandbox.control.clearRequestLog();
    const fetched: string[] = [];
    const base = await baseTree(cache, "octocat", "big", commit, async (dir) => {
      fetched.push(dir);
      await fetchTreeInto(gh, "octocat", "big", commit, dir, { maxBytes: 16 * 1024 * 1024 });
    });
    expect([base.cached, fetched, t.sandbox.control.requestLog]).toEqual([true, [], []]);
    const run = await checkout(cache, base.dir);
    try {
      expect(fs.readFileSync(path.join(run.dir, "pkg/m1/f1.py"), "utf8")).toContain("return 1");
      const grep = spawnSync("grep", ["-rl", token, run.dir, root], { encoding: "utf8" });
      expect([grep.status, grep.stdout]).toEqual([1, ""]); // grep: nothing found
    } finally {
      await run.dispose();
    }
  });

  it("a tree built by the workspace alone is listed from disk, shas and all", async () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), "repo-files-"));
    const c = { cache: { root: other, maxBytes: 64 * 1024 * 1024 }, maxBytes: 16 * 1024 * 1024 };
    await baseTree(c.cache, "octocat", "big", commit, (dir) =>
      fetchTreeInto(gh, "octocat", "big", commit, dir, { maxBytes: c.maxBytes }).then(() => undefined),
    );
    t.sandbox.control.clearRequestLog();
    const listed = await repoFiles(c, gh, "octocat", "big", commit);
    expect(listed.cached).toBe(true);
    expect(restCalls()).toEqual([]);
    expect(listed.files.find((f) => f.path === "pkg/m0/f0.py")?.sha).toBe(
      t.git("octocat", "big", "rev-parse", `${commit}:pkg/m0/f0.py`),
    );
    fs.rmSync(other, { recursive: true, force: true });
  });
});
