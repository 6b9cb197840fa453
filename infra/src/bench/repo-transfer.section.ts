import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Redis } from "ioredis";
import { createGithubClient } from "@fixloop/runtime";
import { startGithubSandbox } from "@fixloop/testkit/sandbox";
import { fetchRepoSnapshot, fetchTreeInto, readBlob } from "@fixloop/worker/repo-files";
import { baseTree, checkout } from "@fixloop/worker/tests-run";
import type { Figure } from "./report";
import type { BenchContext, Section } from "./section.types";
import { generateLargeRepo } from "./large-repo-gen";

/** GitHub REST requests a solve may spend, whatever the repository's size (issue #45). */
export const REQUEST_BUDGET = 25;
const MiB = 1024 * 1024;

/**
 * The generated 50k-file repository pushed to the GitHub stand-in, then what a solve does with
 * its content: step 2 lists it, step 3 reads every file, the sandbox workspace copies it. Counted:
 * the stand-in's REST requests (codeload, where the tarball redirects, is not the REST API).
 */
export const repoTransferSection: Section = {
  name: "repo-transfer",
  async run(ctx: BenchContext): Promise<Figure[]> {
    const repo = generateLargeRepo(path.join(ctx.dir, "large-repo"));
    const work = path.join(ctx.dir, "large-repo-git");
    fs.rmSync(work, { recursive: true, force: true });
    fs.cpSync(repo.dir, work, { recursive: true });
    const git = (...a: string[]) => execFileSync("git", ["-C", work, ...a], { encoding: "utf8", maxBuffer: 64 * MiB });
    git("init", "-q", "-b", "main");
    git("add", ".");
    git("-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-qm", "large");
    const gh0 = fs.mkdtempSync(path.join(ctx.dir, "gh-"));
    const sandbox = await startGithubSandbox({ dataDir: gh0 });
    const redis = new Redis(ctx.services.redisUrl);
    try {
      await sandbox.control.createRepository("octocat", "large");
      git("push", "-q", "--force", sandbox.control.gitDir("octocat", "large"), "main:main");
      const files = Number(git("ls-files").split("\n").length);
      const gh = createGithubClient({ baseUrl: sandbox.url, token: sandbox.control.issueToken("octocat", ["repo"]) });
      const cache = { root: path.join(ctx.dir, "transfer-cache"), maxBytes: 4096 * MiB };
      fs.rmSync(cache.root, { recursive: true, force: true });
      sandbox.control.clearRequestLog();
      const signal = new AbortController().signal;
      const t0 = performance.now();
      const snap = await fetchRepoSnapshot(gh, redis, "bench", "octocat", "large", signal, undefined, {
        cache,
        maxBytes: 500 * MiB,
      });
      const listedMs = performance.now() - t0;
      for (const f of snap.files) await readBlob(gh, redis, "bench", "octocat", "large", f.sha, signal);
      const base = await baseTree(cache, "octocat", "large", snap.commitSha, (dir) =>
        fetchTreeInto(gh, "octocat", "large", snap.commitSha, dir, { maxBytes: 500 * MiB }).then(() => undefined),
      );
      const run = await checkout(cache, base.dir);
      await run.dispose();
      const rest = sandbox.control.requestLog.filter((r) => !r.path.startsWith("/_codeload/")).length;
      const section = `repository content (${files} files, generated), on the GitHub stand-in`;
      const before = 3 + 1 + 2 * files; // branch, ref, commit, recursive tree, then a getBlob per file in step 3 and again in the workspace
      return [
        {
          section,
          name: "GitHub requests per solve (step 2, step 3 reading every file, workspace)",
          value: rest,
          unit: "requests",
          baseline: before,
          baselineName: "trees API + one getBlob per file, twice (before #45)",
          target: `≤ ${REQUEST_BUDGET}`,
          holds: rest <= REQUEST_BUDGET,
        },
        { section, name: "tarball transfer and unpack (cold)", value: listedMs / 1000, unit: "s" },
        { section, name: "files listed", value: snap.files.length, unit: "files" },
      ];
    } finally {
      redis.disconnect();
      await sandbox.stop();
      fs.rmSync(gh0, { recursive: true, force: true });
    }
  },
};
