/**
 * A seccomp filter for sandboxed commands, as the classic BPF program bubblewrap's `--seccomp FD`
 * loads. It refuses what a test suite never needs and an escape usually does: namespaces, mounts,
 * tracing other processes, the kernel keyring, eBPF, perf, modules, kexec, file handles,
 * userfaultfd, io_uring, clock and host settings. Anything of another ABI (i386, x32) is refused too,
 * so a 32-bit syscall table cannot be used to get around the numbers below.
 */

const EPERM = 1;
const ENOSYS = 38;

/** Everything the filter refuses, by name: the numbers come from each architecture's table. */
const DENIED = [
  "unshare",
  "setns",
  "mount",
  "umount2",
  "pivot_root",
  "chroot",
  "open_tree",
  "move_mount",
  "fsopen",
  "fsconfig",
  "fsmount",
  "fspick",
  "mount_setattr",
  "ptrace",
  "process_vm_readv",
  "process_vm_writev",
  "keyctl",
  "add_key",
  "request_key",
  "bpf",
  "perf_event_open",
  "kexec_load",
  "kexec_file_load",
  "init_module",
  "finit_module",
  "delete_module",
  "open_by_handle_at",
  "name_to_handle_at",
  "userfaultfd",
  "fanotify_init",
  "lookup_dcookie",
  "quotactl",
  "swapon",
  "swapoff",
  "reboot",
  "acct",
  "syslog",
  "vhangup",
  "settimeofday",
  "clock_settime",
  "clock_adjtime",
  "adjtimex",
  "sethostname",
  "setdomainname",
] as const;
type Denied = (typeof DENIED)[number];

/** Refused with ENOSYS, so libraries fall back (glibc to clone, libuv to epoll). */
const UNAVAILABLE = ["clone3", "io_uring_setup", "io_uring_enter", "io_uring_register"] as const;
type Unavailable = (typeof UNAVAILABLE)[number];

type Table = Record<Denied | Unavailable | "clone" | "personality", number>;

interface Arch {
  audit: number;
  /** Syscall numbers at or above this belong to another ABI on the same arch (x32). */
  abiBit?: number;
  table: Table;
}

// prettier-ignore
const X86_64: Arch = {
  audit: 0xc000003e,
  abiBit: 0x40000000,
  table: {
    unshare: 272, setns: 308, mount: 165, umount2: 166, pivot_root: 155, chroot: 161, open_tree: 428,
    move_mount: 429, fsopen: 430, fsconfig: 431, fsmount: 432, fspick: 433, mount_setattr: 442, ptrace: 101,
    process_vm_readv: 310, process_vm_writev: 311, keyctl: 250, add_key: 248, request_key: 249, bpf: 321,
    perf_event_open: 298, kexec_load: 246, kexec_file_load: 320, init_module: 175, finit_module: 313,
    delete_module: 176, open_by_handle_at: 304, name_to_handle_at: 303, userfaultfd: 323, fanotify_init: 300,
    lookup_dcookie: 212, quotactl: 179, swapon: 167, swapoff: 168, reboot: 169, acct: 163, syslog: 103,
    vhangup: 153, settimeofday: 164, clock_settime: 227, clock_adjtime: 305, adjtimex: 159, sethostname: 170,
    setdomainname: 171, clone3: 435, io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427,
    clone: 56, personality: 135,
  },
};

// prettier-ignore
const AARCH64: Arch = {
  audit: 0xc00000b7,
  table: {
    unshare: 97, setns: 268, mount: 40, umount2: 39, pivot_root: 41, chroot: 51, open_tree: 428, move_mount: 429,
    fsopen: 430, fsconfig: 431, fsmount: 432, fspick: 433, mount_setattr: 442, ptrace: 117, process_vm_readv: 270,
    process_vm_writev: 271, keyctl: 219, add_key: 217, request_key: 218, bpf: 280, perf_event_open: 241,
    kexec_load: 104, kexec_file_load: 294, init_module: 105, finit_module: 273, delete_module: 106,
    open_by_handle_at: 265, name_to_handle_at: 264, userfaultfd: 282, fanotify_init: 262, lookup_dcookie: 18,
    quotactl: 60, swapon: 224, swapoff: 225, reboot: 142, acct: 89, syslog: 116, vhangup: 58, settimeofday: 170,
    clock_settime: 112, clock_adjtime: 266, adjtimex: 171, sethostname: 161, setdomainname: 162, clone3: 435,
    io_uring_setup: 425, io_uring_enter: 426, io_uring_register: 427, clone: 220, personality: 92,
  },
};

const ARCHES: Partial<Record<NodeJS.Architecture, Arch>> = { x64: X86_64, arm64: AARCH64 };

/** clone() flags that create namespaces (CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET). */
const CLONE_NAMESPACES = 0x7e020000;
/** personality() values docker's default profile allows: PER_LINUX, UNAME26 and PER_LINUX32 variants, the query. */
const PERSONALITIES = [0x0, 0x8, 0x20000, 0x20008, 0xffffffff];

// Classic BPF opcodes and seccomp return values (linux/filter.h, linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const JA = 0x05;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const RET_KILL_PROCESS = 0x80000000;

// struct seccomp_data: nr at 0, arch at 4, args[i] at 16 + 8i (the low 32 bits first on little-endian).
const NR = 0;
const ARCH = 4;
const ARG0_LOW = 16;

type Label = "allow" | "eperm" | "enosys" | "kill" | "clone" | "personality";
type Insn = { code: number; k: number; jt?: Label; jf?: Label } | { label: Label };

/** The program for this host's architecture (x86_64 or aarch64), or null where there is none. */
export function seccompProgram(arch: NodeJS.Architecture = process.arch): Buffer | null {
  const a = ARCHES[arch];
  return a ? assemble(program(a)) : null;
}

function program(a: Arch): Insn[] {
  const t = a.table;
  const jeq = (k: number, jt: Label): Insn => ({ code: JEQ_K, k, jt });
  return [
    { code: LD_W_ABS, k: ARCH },
    { code: JEQ_K, k: a.audit, jf: "kill" },
    { code: LD_W_ABS, k: NR },
    ...(a.abiBit ? [{ code: JGE_K, k: a.abiBit, jt: "kill" as const }] : []),
    ...DENIED.map((n) => jeq(t[n], "eperm")),
    ...UNAVAILABLE.map((n) => jeq(t[n], "enosys")),
    jeq(t.clone, "clone"),
    jeq(t.personality, "personality"),
    { code: RET_K, k: RET_ALLOW },
    { label: "clone" },
    { code: LD_W_ABS, k: ARG0_LOW },
    { code: JSET_K, k: CLONE_NAMESPACES, jt: "eperm", jf: "allow" },
    { label: "personality" },
    { code: LD_W_ABS, k: ARG0_LOW },
    ...PERSONALITIES.map((p) => jeq(p, "allow")),
    { code: JA, k: 0, jt: "eperm" },
    { label: "eperm" },
    { code: RET_K, k: RET_ERRNO | EPERM },
    { label: "enosys" },
    { code: RET_K, k: RET_ERRNO | ENOSYS },
    { label: "allow" },
    { code: RET_K, k: RET_ALLOW },
    { label: "kill" },
    { code: RET_K, k: RET_KILL_PROCESS },
  ];
}

/** Resolves labels into forward offsets and encodes `struct sock_filter` (u16 code, u8 jt, u8 jf, u32 k). */
function assemble(insns: Insn[]): Buffer {
  const at = new Map<Label, number>();
  const code: Exclude<Insn, { label: Label }>[] = [];
  for (const i of insns) {
    if ("label" in i) at.set(i.label, code.length);
    else code.push(i);
  }
  const out = Buffer.alloc(code.length * 8);
  code.forEach((i, pc) => {
    const off = (l: Label | undefined) => {
      if (!l) return 0;
      const d = (at.get(l) ?? -1) - pc - 1;
      if (d < 0 || d > 255) throw new Error(`seccomp: jump to ${l} out of range`);
      return d;
    };
    // An unconditional jump keeps its target in k; conditional ones in jt/jf.
    const k = i.code === JA ? off(i.jt) : i.k;
    out.writeUInt16LE(i.code, pc * 8);
    out.writeUInt8(i.code === JA ? 0 : off(i.jt), pc * 8 + 2);
    out.writeUInt8(i.code === JA ? 0 : off(i.jf), pc * 8 + 3);
    out.writeUInt32LE(k >>> 0, pc * 8 + 4);
  });
  return out;
}
