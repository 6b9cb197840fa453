import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxRunUid, type SandboxLimits } from "./sandbox";
import { bwrapRunner } from "./sandbox.bwrap";
import { wallReason } from "./tests.limits";
import { handToSandbox, sweepWorkspaces, type WorkspaceCache } from "./workspace";
import { checkoutWalled } from "./workspace.walled-copy";
import { isMountPoint, mountWall, wallImage } from "./workspace.wall";

const MiB = 1024 ** 2;
const BUDGET = 64 * MiB;
const FILE = 16 * MiB;
const limits: SandboxLimits = {
  timeoutMs: 30_000,
  memoryBytes: 4 * 1024 ** 3,
  processes: 128,
  fileBytes: FILE,
  outputBytes: 64 * 1024,
  totalMemoryBytes: 512 * MiB,
  tmpBytes: 8 * MiB,
  diskBytes: BUDGET,
};
const runner = bwrapRunner();
let root: string;
let cache: WorkspaceCache;
let base: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-disk-wall-"));
  cache = { root: path.join(root, "workspaces"), maxBytes: 512 * MiB };
  base = path.join(cache.root, "base", "octocat__walls@abc1234");
  fs.mkdirSync(base, { recursive: true });
  fs.writeFileSync(path.join(base, "README.md"), "# walls\n");
  fs.mkdirSync(path.join(base, "src"));
  fs.writeFileSync(path.join(base, "src", "a.js"), "module.exports = 1;\n");
});
afterAll(() => {
  for (const line of fs.readFileSync("/proc/self/mounts", "utf8").split("\n"))
    if (line.includes(root)) spawnSync("umount", ["-l", line.split(" ")[1] ?? ""]);
  execFileSync("rm", ["-rf", "--one-file-system", root]);
});

/** Bytes the run copies take on the host's filesystem (du -x: the images, not what is mounted from them). */
const hostUsage = (dir: string) => Number(execFileSync("du", ["-s", "-x", "-B1", dir]).toString().split("\t")[0]);

const mountsUnder = (dir: string) =>
  fs
    .readFileSync("/proc/self/mounts", "utf8")
    .split("\n")
    .filter((l) => l.split(" ")[1]?.startsWith(dir));

/** A walled copy of the base tree handed to a fresh uid, as the tests pipeline makes one. */
async function walledCopy() {
  const ws = await checkoutWalled(cache, base, BUDGET);
  const uid = sandboxRunUid();
  await handToSandbox(ws.dir, uid);
  return { ...ws, uid };
}

/** Runs `command` while sampling the host usage of `runs/` every few milliseconds; returns the result and the peak. */
async function runSampled(command: string, ws: { dir: string; uid: number }) {
  const runs = path.join(cache.root, "runs");
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, hostUsage(runs));
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const r = await runner.run({ workspace: ws.dir, command, network: false, limits, uid: ws.uid });
  execFileSync("sync"); // what the run wrote reaches the image (and the host) before the last sample
  peak = Math.max(peak, hostUsage(runs));
  sampling = false;
  await sampler;
  return { r, peak };
}

describe("the workspace's disk budget is a filesystem of its size (real bubblewrap, real files)", () => {
  it("a burst of preallocations never takes the host past the budget plus one file, and the run says the budget was reached", async () => {
    const ws = await walledCopy();
    try {
      expect(fs.readFileSync(path.join(ws.dir, "src", "a.js"), "utf8")).toBe("module.exports = 1;\n");
      const { r, peak } = await runSampled(
        "for i in $(seq 6); do head -c 16777216 /dev/urandom > w$i; done; for i in $(seq 24); do fallocate -l 16M big$i; done; echo burst-done",
        ws,
      );
      expect(peak).toBeLessThanOrEqual(BUDGET + FILE);
      // Whether the shell got to print its ENOSPC is a race with the guard, which stops the run
      // as soon as the image is full; the run's verdict below is what the product reports.
      expect(ws.wall).toBe("filesystem");
      expect(r.disk).toBe("filesystem");
      expect(r.limitHit).toBe("disk");
      expect(wallReason({ ...r, setupFailed: false })).toBe(
        "The tests reached the workspace's disk budget: writing past it failed (no space left on device)",
      );
      // The repository is still there, whole: the wall refused only what came past it.
      expect(fs.readFileSync(path.join(ws.dir, "README.md"), "utf8")).toBe("# walls\n");
    } finally {
      await ws.dispose();
    }
    expect(mountsUnder(cache.root)).toEqual([]);
    expect(fs.readdirSync(path.join(cache.root, "runs"))).toEqual([]);
  });

  it("a hostile command can neither unmount the wall nor grow it, nor reach its image", async () => {
    const ws = await walledCopy();
    try {
      const before = fs.statfsSync(ws.dir).blocks;
      const { r, peak } = await runSampled(
        [
          "umount /workspace && echo unmounted",
          "umount -l /workspace && echo lazily-unmounted",
          "mount -o remount,size=1G /workspace && echo remounted",
          "ls /dev | grep -c loop; echo loops-listed",
          `ls -a .. | tr '\\n' ' '; echo`,
          "resize2fs /dev/loop0 1G && echo grown",
          "for i in $(seq 12); do head -c 16777216 /dev/zero > f$i || break; done; echo filled",
        ].join("; "),
        ws,
      );
      expect(r.output).not.toMatch(/\bunmounted|remounted|grown/);
      expect(r.output).not.toContain(".img");
      expect(r.output).toMatch(/^0\nloops-listed/m);
      expect(await isMountPoint(ws.dir)).toBe(true);
      expect(fs.statfsSync(ws.dir).blocks).toBe(before);
      expect(peak).toBeLessThanOrEqual(BUDGET + FILE);
      expect(r.limitHit).toBe("disk");
    } finally {
      await ws.dispose();
    }
  });

  it("running out of inodes is reaching the budget too: many empty files cannot get past it either", async () => {
    const ws = await walledCopy();
    try {
      const inodes = fs.statfsSync(ws.dir).files;
      const { r } = await runSampled(
        `i=0; while [ $i -lt ${inodes + 10} ]; do : > e$i || break; i=$((i+1)); done; echo made=$i`,
        ws,
      );
      // Stopped once full (or ended at the wall): never more files than the filesystem has inodes.
      expect(fs.readdirSync(ws.dir).length).toBeLessThan(inodes);
      expect(fs.readdirSync(ws.dir).length).toBeGreaterThan(inodes - 64);
      expect(r.limitHit).toBe("disk");
    } finally {
      await ws.dispose();
    }
  });

  it("the startup sweep unmounts and removes the wall a crashed worker left", async () => {
    const dead = spawnSync("true").pid ?? 0; // a process that has exited: its pid is free
    const dir = path.join(cache.root, "runs", `${dead}-crashed`);
    fs.mkdirSync(dir, { recursive: true });
    expect(await mountWall(dir, BUDGET)).toEqual({ ok: true });
    fs.writeFileSync(path.join(dir, "left-behind"), "x");
    expect(mountsUnder(dir)).toHaveLength(1);
    const removed = await sweepWorkspaces(cache);
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(mountsUnder(dir)).toEqual([]);
    expect(fs.existsSync(dir)).toBe(false);
    expect(fs.existsSync(wallImage(dir))).toBe(false);
  });

  it("a repository larger than the budget is copied without a wall, and the run says why the budget is only polled", async () => {
    const big = path.join(cache.root, "base", "octocat__big@def5678");
    fs.mkdirSync(big, { recursive: true });
    execFileSync("head", ["-c", String(2 * MiB), "/dev/urandom"], {
      stdio: ["ignore", fs.openSync(path.join(big, "blob"), "w"), "ignore"],
    });
    const ws = await checkoutWalled(cache, big, 1 * MiB);
    try {
      expect(ws.wall).toBe("poll");
      expect(ws.why).toBe("the repository alone does not fit in the budget");
      expect(fs.statSync(path.join(ws.dir, "blob")).size).toBe(2 * MiB);
      expect(await isMountPoint(ws.dir)).toBe(false);
      expect(fs.existsSync(wallImage(ws.dir))).toBe(false);
    } finally {
      await ws.dispose();
    }
  });
});
