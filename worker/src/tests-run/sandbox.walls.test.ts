import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOST_ENV, sandboxRunUid, type SandboxLimits, type SandboxRunSpec } from "./sandbox";
import { bwrapArgv, bwrapRunner } from "./sandbox.bwrap";
import { sweepCgroups } from "./sandbox.cgroup";
import { runProcessGroup } from "./sandbox.process";
import { limitLines } from "./tests.limits";

const MiB = 1024 ** 2;
const limits: SandboxLimits = {
  timeoutMs: 20_000,
  memoryBytes: 4 * 1024 ** 3,
  processes: 128,
  fileBytes: 256 * MiB,
  outputBytes: 64 * 1024,
  totalMemoryBytes: 256 * MiB,
  tmpBytes: 8 * MiB,
  diskBytes: 32 * MiB,
};
const runner = bwrapRunner();
let root: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-walls-"));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** Runs `command` in a fresh workspace of its own uid (as the tests pipeline does). */
const run = (command: string, extra: Partial<SandboxRunSpec> = {}) => {
  const uid = sandboxRunUid();
  const workspace = fs.mkdtempSync(path.join(root, "ws-"));
  fs.chownSync(workspace, uid, uid);
  return runner.run({ workspace, command, network: false, limits, uid, ...extra });
};

/** Each process holds 120 MiB (touched), well under its own address-space cap; four together pass the 256 MiB total. */
const HOG = `node -e 'const a=[];for(let i=0;i<120;i++)a.push(Buffer.alloc(1<<20,1));console.log("holding");setTimeout(()=>{},2000)'`;

describe("the sandbox's walls hold in total, not only per process (real bubblewrap)", () => {
  it("stops processes that together go over the memory cap, each under its own limit, and says memory was the wall", async () => {
    const r = await run(`for i in 1 2 3 4; do ${HOG} & done; wait; echo waited`);
    expect(r.totals).toMatch(/^cgroup v[12]$/);
    expect(r.limitHit).toBe("memory");
    expect(r.output.match(/holding/g)?.length ?? 0).toBeLessThan(4);
    // one of them alone fits
    const one = await run(HOG);
    expect(one.exitCode).toBe(0);
    expect(one.limitHit).toBeUndefined();
  });

  it("caps the processes of the whole sandbox and reports the cap was reached", async () => {
    const r = await run("for i in $(seq 200); do sleep 3 & done; wait; echo end", {
      limits: { ...limits, processes: 64 },
    });
    expect(r.output).toMatch(/fork|Resource temporarily unavailable|retry/i);
    expect(r.limitHit).toBe("processes");
  });

  it("bounds /tmp and /dev/shm, and /dev takes no files", async () => {
    const r = await run(
      "head -c 20000000 /dev/zero > /tmp/big; echo tmp=$(stat -c %s /tmp/big); head -c 20000000 /dev/zero > /dev/shm/big; echo shm=$(stat -c %s /dev/shm/big); echo x > /dev/planted || echo dev-refused",
    );
    expect(r.output).toMatch(/No space left on device/);
    expect(Number(r.output.match(/tmp=(\d+)/)?.[1])).toBeLessThanOrEqual(8 * MiB);
    expect(Number(r.output.match(/shm=(\d+)/)?.[1])).toBeLessThanOrEqual(8 * MiB);
    expect(r.output).toContain("dev-refused");
  });

  it("stops a command that fills the workspace past its disk budget while it runs, and says disk was the wall", async () => {
    const started = Date.now();
    const r = await run("for i in $(seq 200); do head -c 1000000 /dev/zero > f$i; done; sleep 20; echo finished");
    expect(r.limitHit).toBe("disk");
    expect(r.disk).toBe("poll"); // a plain directory: no wall, the poll stops it
    expect(limitLines({ timeoutMs: null }, limits, r).warnings).toEqual([
      "Disk budget: 32 MB, checked every 500 ms only (the workspace is no filesystem of its own): a fast writer can overshoot it until the check stops the run",
    ]);
    expect(r.exitCode).toBeNull();
    expect(r.output).not.toContain("finished");
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("refuses nested user namespaces: `unshare -Ur true` fails inside", async () => {
    const r = await run("unshare -Ur true && echo userns-created || echo userns-refused; id -u");
    expect(r.output).toContain("userns-refused");
    expect(r.output).not.toContain("userns-created");
  });

  it("refuses nested user namespaces with --disable-userns alone, without the seccomp filter", async () => {
    const uid = sandboxRunUid();
    const workspace = fs.mkdtempSync(path.join(root, "ws-"));
    fs.chownSync(workspace, uid, uid);
    const spec = {
      workspace,
      command: "unshare -Ur true && echo userns-created || echo userns-refused",
      network: false,
      limits,
      uid,
    };
    const r = await runProcessGroup(bwrapArgv(spec, { seccompFd: undefined }), spec, HOST_ENV);
    expect(r.output).toContain("userns-refused");
    expect(r.output).not.toContain("userns-created");
  });

  it("refuses tracing, keyrings, namespace flags on clone, odd personalities and io_uring (seccomp); threads and children still work", async () => {
    const probe = [
      "import ctypes, os, subprocess, threading",
      "libc = ctypes.CDLL(None, use_errno=True)",
      "def call(name, nr, *args):",
      "    r = libc.syscall(nr, *args)",
      "    print(name, 'ok' if r >= 0 else os.strerror(ctypes.get_errno()))",
      "call('ptrace', 101, 0, 0, 0, 0)",
      "call('add_key', 248, b'user', b'fixloop', b'x', 1, ctypes.c_long(-2))",
      "call('clone-newuser', 56, 0x10000000 | 17, 0, 0, 0, 0)",
      "call('personality', 135, 0x0400000)",
      "call('io_uring_setup', 425, 8, ctypes.create_string_buffer(120))",
      "call('clone3', 435, 0, 0)",
      "t = threading.Thread(target=print, args=('thread-ok',)); t.start(); t.join()",
      "print('child', subprocess.run(['true']).returncode)",
    ].join("\n");
    const r = await run(`python3 - <<'EOF'\n${probe}\nEOF\nunshare -n true || echo netns-refused`);
    if (process.arch === "x64") {
      expect(r.output).toMatch(/^ptrace Operation not permitted$/m);
      expect(r.output).toMatch(/^add_key Operation not permitted$/m);
      expect(r.output).toMatch(/^clone-newuser Operation not permitted$/m);
      expect(r.output).toMatch(/^personality Operation not permitted$/m);
      expect(r.output).toMatch(/^io_uring_setup Function not implemented$/m);
      expect(r.output).toMatch(/^clone3 Function not implemented$/m);
    }
    expect(r.output).toContain("thread-ok");
    expect(r.output).toContain("child 0");
    expect(r.output).toContain("netns-refused");
  });

  it("a worker that is not root (no cgroup to create) keeps the user-namespace and seccomp walls, and the step says limits are per process", () => {
    const script = path.join(root, "nonroot.mts");
    const workspace = fs.mkdtempSync(path.join(root, "ws-"));
    fs.chmodSync(root, 0o755);
    fs.chownSync(workspace, 4321, 4321);
    fs.writeFileSync(
      script,
      `import { bwrapRunner } from ${JSON.stringify(path.resolve(__dirname, "sandbox.bwrap.ts"))};
const r = await bwrapRunner().run({ workspace: ${JSON.stringify(workspace)}, network: false, limits: ${JSON.stringify(limits)},
  command: "id -u; unshare -Ur true || echo userns-refused; python3 -c 'import ctypes; print(\\"ptrace\\", ctypes.CDLL(None).syscall(101, 0, 0, 0, 0))'" });
console.log(JSON.stringify(r));`,
    );
    const out = execFileSync(
      "setpriv",
      ["--reuid=4321", "--regid=4321", "--clear-groups", path.resolve("node_modules/.bin/tsx"), script],
      {
        env: { PATH: process.env.PATH ?? "", HOME: root },
        encoding: "utf8",
      },
    );
    const r = JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as { output: string; totals: string };
    expect(r.output).toMatch(/^65534$/m);
    expect(r.output).toContain("userns-refused");
    if (process.arch === "x64") expect(r.output).toMatch(/^ptrace -1$/m);
    expect(r.totals).toBe("per process");
    expect(limitLines({ timeoutMs: null }, limits, { totals: "per process" }).warnings).toEqual([
      "Sandbox limits: memory and processes were capped per process only (no cgroup could be created for the sandbox as a whole)",
    ]);
  });

  it("removes the cgroups a crashed worker left behind, and leaves a live worker's alone", async () => {
    const own = fs.readFileSync("/proc/self/cgroup", "utf8").match(/^\d+:memory:(.*)$/m)?.[1] ?? "/";
    const parent = path.join("/sys/fs/cgroup/memory", own);
    const dead = path.join(parent, "fixloop-99999999-left");
    const live = path.join(parent, `fixloop-${process.ppid}-running`);
    fs.mkdirSync(dead);
    fs.mkdirSync(live);
    try {
      expect(await sweepCgroups()).toBeGreaterThanOrEqual(1);
      expect(fs.existsSync(dead)).toBe(false);
      expect(fs.existsSync(live)).toBe(true);
    } finally {
      fs.rmdirSync(live);
      if (fs.existsSync(dead)) fs.rmdirSync(dead);
    }
  });
});
