import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestRedis, testPrefix } from "@fixloop/testkit";
import { CLUSTER_METRICS, readCounter } from "@fixloop/runtime";
import { compareRuns } from "./compare";
import { evidenceLines, solutionTests } from "./evidence";
import { disposePrepared, prepareTests, runPatched, type Prepared, type TestsDeps } from "./run-tests";
import type { SandboxLimits } from "./sandbox";
import { bwrapRunner } from "./sandbox.bwrap";
import { limitLines } from "./tests.limits";
import { sweepWorkspaces } from "./workspace";
import { CleanupError } from "./workspace.cleanup";

const MiB = 1024 ** 2;
const limits: SandboxLimits = {
  timeoutMs: 3_000,
  memoryBytes: 4 * 1024 ** 3,
  processes: 128,
  fileBytes: 256 * MiB,
  outputBytes: 64 * 1024,
  totalMemoryBytes: 512 * MiB,
  tmpBytes: 16 * MiB,
  diskBytes: 32 * MiB,
};
const redis = createTestRedis();
let root: string;
let deps: TestsDeps;
const cleanupErrors: Error[] = [];

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-run-walls-"));
  deps = {
    runner: bwrapRunner(),
    backend: "bwrap",
    cache: { root: path.join(root, "workspaces"), maxBytes: 512 * MiB },
    limits,
    redis,
    prefix: testPrefix(),
    emit: () => Promise.resolve(),
    onCleanupError: (err) => cleanupErrors.push(err),
  };
});
afterAll(() => {
  execFileSync("rm", ["-rf", "--one-file-system", root]);
});

/** A repository at a fresh commit holding `files`. */
const repo = (files: Record<string, string>) => ({
  owner: "octocat",
  repo: "walls",
  commit: randomBytes(20).toString("hex"),
  settings: null,
  trusted: true,
  fetch: async (dir: string) => {
    for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
  },
});

const prepared = async (files: Record<string, string>): Promise<Prepared> => {
  const p = await prepareTests(deps, repo(files));
  if ("reason" in p) throw new Error(p.reason);
  return p;
};

/** 2,000 nested directories of 200-character names (a path of ~400 KB), one of them and a sibling left mode 000. */
const DEEP = `import os
os.makedirs("locked/inner"); open("locked/inner/f", "w").write("x")
top = os.open(".", os.O_RDONLY)
for i in range(2000):
    os.mkdir("d" * 200); os.chdir("d" * 200)
os.chmod(".", 0)
os.fchdir(top)
os.chmod("locked/inner", 0); os.chmod("locked", 0)
print("deep-done")
`;

/** Sandbox runs of `phase` that ended with `result`, as /metrics serves them. */
const sandboxRuns = async (phase: string, result: string) =>
  (await readCounter(redis, deps.prefix, CLUSTER_METRICS.sandboxRuns)).find(
    (s) => s.labels.phase === phase && s.labels.result === result,
  )?.value ?? 0;

const runsLeft = () => fs.readdirSync(path.join(deps.cache.root, "runs"));

describe("the test pipeline's walls and cleanup (real bubblewrap)", () => {
  it("removes a deep, unreadable tree the tests left behind; the result stands and names no host path", async () => {
    const p = await prepared({ "deep.py": DEEP, ".fixloop.yml": "test: python3 deep.py\n" });
    expect(p.base.exitCode).toBe(0);
    expect(p.base.logTail).toContain("deep-done");
    const patched = await runPatched(
      deps,
      p,
      [{ filename: "note.txt", action: "create", content: "x", originalContent: "" }],
      "patched",
    );
    expect(patched.exitCode).toBe(0);
    expect(runsLeft()).toEqual([]);
    expect(cleanupErrors).toEqual([]);
    const tests = solutionTests(
      "bwrap",
      p.plan.command,
      p.base,
      [{ label: "first", run: patched, cmp: compareRuns(p.base, patched), files: [] }],
      { label: "first", run: patched, cmp: compareRuns(p.base, patched), files: [] },
      limits.timeoutMs,
    );
    expect(tests.status).toBe("passed");
    expect(JSON.stringify(tests)).not.toContain(root);
  });

  it("the startup sweep removes what a crashed worker left, deep trees included, and carries on past one it cannot remove", async () => {
    const runs = path.join(deps.cache.root, "runs");
    const deep = path.join(runs, "99999999-deep");
    fs.mkdirSync(deep, { recursive: true });
    execFileSync("python3", ["-c", DEEP], { cwd: deep });
    // Another filesystem inside a run copy: rm --one-file-system leaves it, so that entry fails.
    const stuck = path.join(runs, "99999998-stuck", "mnt");
    fs.mkdirSync(stuck, { recursive: true });
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "fixloop-test", stuck]);
    try {
      const failed: string[] = [];
      const removed = await sweepWorkspaces(deps.cache, (name) => failed.push(name));
      expect(removed).toBe(1);
      expect(failed).toEqual(["runs/99999998-stuck"]);
      expect(fs.existsSync(deep)).toBe(false);
    } finally {
      execFileSync("umount", [stuck]);
      fs.rmSync(path.dirname(stuck), { recursive: true, force: true });
    }
  });

  it("a set-up base that cannot be removed is reported, never thrown: the run's result stands", async () => {
    const p = await prepared({
      "t.sh": "echo ok\n",
      ".fixloop.yml": "setup: mkdir -p deps\nnetwork: true\ntest: sh t.sh\n",
    });
    expect(p.base.exitCode).toBe(0);
    const setUp = p.setUp?.dir ?? "";
    expect(fs.existsSync(path.join(setUp, "deps"))).toBe(true);
    // Another filesystem inside the copy: rm --one-file-system leaves it, so removal fails.
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "fixloop-test", path.join(setUp, "deps")]);
    const failed: Error[] = [];
    try {
      await expect(disposePrepared(p, (err) => failed.push(err))).resolves.toBeUndefined();
      expect(failed).toHaveLength(1);
      expect(failed[0]).toBeInstanceOf(CleanupError);
      expect(failed[0]?.message).toBe("The workspace could not be removed");
    } finally {
      execFileSync("umount", [path.join(setUp, "deps")]);
      fs.rmSync(setUp, { recursive: true, force: true });
    }
  });

  it("holds a repository's timeout above the operator's to the operator's, and says so", async () => {
    const started = Date.now();
    const timedOutBefore = await sandboxRuns("base", "timed_out");
    const p = await prepared({ ".fixloop.yml": "test: sleep 25\ntimeout: 3600\n" });
    expect(p.base.timedOut).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await sandboxRuns("base", "timed_out")).toBe(timedOutBefore + 1);
    expect(limitLines(p.plan, limits, p.base).info).toContain(
      "The repository asks for a 3600 s timeout; this server's limit of 3 s applies",
    );
  });

  it("a patched run that fills the workspace meets a filesystem of its disk budget, is stopped, and the step says so", async () => {
    const p = await prepared({ "t.sh": "echo ok\n", ".fixloop.yml": "test: sh t.sh\n" });
    const fill = "for i in $(seq 100); do head -c 1000000 /dev/zero > f$i; done; sleep 20\n";
    const run = await runPatched(
      deps,
      p,
      [{ filename: "t.sh", action: "modify", content: fill, originalContent: "echo ok\n" }],
      "patched",
    );
    expect(run.limitHit).toBe("disk");
    expect(run.disk).toBe("filesystem");
    expect(run.logTail).toMatch(/No space left on device/);
    expect(await sandboxRuns("patched", "limit_hit")).toBe(1);
    expect(limitLines(p.plan, limits, run).info).toContain(
      "Disk budget: 32 MB, a filesystem of that size for the workspace (writing past it fails)",
    );
    const attempt = { label: "first" as const, run, cmp: compareRuns(p.base, run), files: [] };
    const tests = solutionTests("bwrap", p.plan.command, p.base, [attempt], attempt, limits.timeoutMs);
    expect(tests.status).toBe("error");
    expect(evidenceLines(tests).warnings).toContain(
      "Tests: could not run: the tests reached the workspace's disk budget: writing past it failed (no space left on device)",
    );
    expect(runsLeft()).toEqual([]);
  });
});
