import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "./paths";

/**
 * The compose worker's seccomp profile, loaded for real: compiled (x86_64) into the classic BPF
 * program a container runtime would install, put on a process by an outer bwrap, under which an
 * unprivileged bwrap builds a sandbox as the worker's does. Docker's default (the profile without
 * its bwrap rule) must stop that bwrap, ours must let it through.
 */

interface Rule {
  names: string[];
  action: string;
  errnoRet?: number;
  args?: { index: number; value: number; op: string }[];
  includes?: { caps?: string[]; arches?: string[]; minKernel?: string };
  excludes?: { caps?: string[] };
}
const profile = JSON.parse(fs.readFileSync(path.join(ROOT, "deploy/seccomp/fixloop-worker.json"), "utf8")) as {
  defaultErrnoRet: number;
  syscalls: Rule[];
};

/** x86_64 syscall numbers from the kernel headers (linux-libc-dev). */
function syscallTable(): Map<string, number> {
  const header = fs.readFileSync("/usr/include/x86_64-linux-gnu/asm/unistd_64.h", "utf8");
  return new Map([...header.matchAll(/#define __NR_(\w+) (\d+)/g)].map((m) => [m[1] ?? "", Number(m[2])]));
}

const AUDIT_ARCH_X86_64 = 0xc000003e;
const X32_BIT = 0x40000000;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const RET_KILL = 0x80000000;

/** What a runtime with no capabilities granted installs for `rules`, as `struct sock_filter`s. */
function compile(rules: Rule[]): Buffer {
  const table = syscallTable();
  const applies = (r: Rule) =>
    !r.includes?.caps?.length &&
    (!r.includes?.arches || r.includes.arches.some((a) => a === "amd64" || a === "x86_64"));
  const insns: [number, number, number, number][] = [
    [0x20, 0, 0, 4], // ld arch
    [0x15, 1, 0, AUDIT_ARCH_X86_64],
    [0x06, 0, 0, RET_KILL],
    [0x20, 0, 0, 0], // ld nr
    [0x35, 0, 1, X32_BIT],
    [0x06, 0, 0, RET_ERRNO | profile.defaultErrnoRet],
  ];
  for (const r of rules.filter(applies)) {
    const ret = r.action === "SCMP_ACT_ALLOW" ? RET_ALLOW : RET_ERRNO | (r.errnoRet ?? profile.defaultErrnoRet);
    const cond = r.args?.[0];
    expect(r.args?.length ?? 0).toBeLessThan(2);
    for (const n of r.names) {
      const nr = table.get(n);
      if (nr === undefined) continue;
      if (!cond) {
        insns.push([0x15, 0, 1, nr], [0x06, 0, 0, ret]);
        continue;
      }
      // The argument's low 32 bits (every value in the profile fits), then the number again.
      const load: [number, number, number, number] = [0x20, 0, 0, 16 + 8 * cond.index];
      const reload: [number, number, number, number] = [0x20, 0, 0, 0];
      if (cond.op === "SCMP_CMP_MASKED_EQ")
        insns.push([0x15, 0, 5, nr], load, [0x54, 0, 0, cond.value], [0x15, 0, 1, 0], [0x06, 0, 0, ret], reload);
      else if (cond.op === "SCMP_CMP_EQ")
        insns.push([0x15, 0, 4, nr], load, [0x15, 0, 1, cond.value], [0x06, 0, 0, ret], reload);
      else if (cond.op === "SCMP_CMP_NE")
        insns.push([0x15, 0, 4, nr], load, [0x15, 1, 0, cond.value], [0x06, 0, 0, ret], reload);
      else throw new Error(`unhandled op ${cond.op}`);
    }
  }
  insns.push([0x06, 0, 0, RET_ERRNO | profile.defaultErrnoRet]);
  const out = Buffer.alloc(insns.length * 8);
  insns.forEach(([code, jt, jf, k], i) => {
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-seccomp-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Runs an unprivileged bwrap sandbox (user, mount, pid, net namespaces, its own /proc) under `program`. */
function bwrapUnder(program: Buffer): { status: number | null; stderr: string } {
  const file = path.join(tmp, `p${Math.random().toString(36).slice(2)}.bpf`);
  fs.writeFileSync(file, program);
  const fd = fs.openSync(file, "r");
  try {
    const inner = [
      "bwrap",
      "--unshare-all",
      "--ro-bind",
      "/usr",
      "/usr",
      ...["bin", "lib", "lib64", "sbin"].flatMap((d) =>
        fs.lstatSync(`/${d}`, { throwIfNoEntry: false })?.isSymbolicLink()
          ? ["--symlink", fs.readlinkSync(`/${d}`), `/${d}`]
          : ["--ro-bind-try", `/${d}`, `/${d}`],
      ),
      "--proc",
      "/proc",
      "--dev",
      "/dev",
      "--tmpfs",
      "/tmp",
      "--",
      "/bin/sh",
      "-c",
      "test -r /proc/self/status && echo sandboxed",
    ];
    // As the worker is: a uid of its own, no capability, no-new-privs (the runtime's default).
    const asWorker =
      process.getuid?.() === 0
        ? ["setpriv", "--reuid=1000", "--regid=1000", "--clear-groups", "--inh-caps=-all", "--no-new-privs", "--"]
        : [];
    const out = spawnSync("bwrap", ["--dev-bind", "/", "/", "--seccomp", "3", "--", ...asWorker, ...inner], {
      stdio: ["ignore", "pipe", "pipe", fd],
      encoding: "utf8",
      timeout: 20_000,
    });
    return { status: out.status, stderr: `${out.stdout}${out.stderr}` };
  } finally {
    fs.closeSync(fd);
  }
}

describe("the worker's seccomp profile, loaded", () => {
  it("lets an unprivileged bwrap build its sandbox", () => {
    const run = bwrapUnder(compile(profile.syscalls));
    expect(run.stderr).toContain("sandboxed");
    expect(run.status).toBe(0);
  });

  it("is what bwrap needs: Docker's default without our rule stops it", () => {
    const dockerDefault = profile.syscalls.filter((r) => !r.names.includes("pivot_root"));
    expect(dockerDefault.length).toBe(profile.syscalls.length - 1);
    const run = bwrapUnder(compile(dockerDefault));
    expect(run.status).not.toBe(0);
    expect(run.stderr).not.toContain("sandboxed");
    expect(run.stderr).toMatch(/bwrap: .*(namespace|Operation not permitted)/i);
  });

  it.each(["clone", "unshare", "mount", "pivot_root", "umount2"])("needs %s from our rule", (name) => {
    const without = profile.syscalls.map((r) =>
      r.names.includes("pivot_root") ? { ...r, names: r.names.filter((n) => n !== name) } : r,
    );
    const run = bwrapUnder(compile(without));
    expect(run.status).not.toBe(0);
    expect(run.stderr).not.toContain("sandboxed");
  });
});
