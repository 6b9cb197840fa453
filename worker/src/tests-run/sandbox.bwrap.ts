import fs from "node:fs";
import path from "node:path";
import {
  DEFAULT_TMP_BYTES,
  prlimitArgs,
  SANDBOX_ENV,
  SANDBOX_UID,
  type SandboxResult,
  type SandboxRunner,
  type SandboxRunSpec,
} from "./sandbox";
import { egressBinds, egressCommand, egressEnv, withEgress } from "./sandbox.egress.bridge";
import { DEFAULT_ALLOWED_HOSTS, parseAllowedHosts, type EgressPolicy } from "./sandbox.egress.policy";
import { runWalled } from "./sandbox.walls";

/** Only what toolchains need from /etc: no shadow, no ssh keys, no machine secrets. */
const ETC = [
  "alternatives",
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "ssl",
  "ca-certificates",
  "localtime",
  "passwd",
  "group",
  "nsswitch.conf",
  "hosts",
  "resolv.conf",
  "mime.types",
];

/** Top-level system dirs: distros make some of them symlinks into /usr. */
function systemDirs(): string[] {
  const args: string[] = ["--ro-bind", "/usr", "/usr"];
  for (const d of ["/bin", "/sbin", "/lib", "/lib32", "/lib64"]) {
    const st = fs.lstatSync(d, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isSymbolicLink()) args.push("--symlink", fs.readlinkSync(d), d);
    else args.push("--ro-bind", d, d);
  }
  args.push("--perms", "0755", "--dir", "/etc");
  for (const e of ETC) args.push("--ro-bind-try", `/etc/${e}`, `/etc/${e}`);
  return args;
}

/** The node running the worker, so `node --test` works inside (its install prefix, read-only). */
function nodePrefix(): string | null {
  const bin = path.dirname(fs.realpathSync(process.execPath));
  const prefix = path.dirname(bin);
  return prefix === "/usr" || prefix === "/" ? null : prefix;
}

export interface BwrapOptions {
  /** Extra host directories bound read-only at the same path (toolchains outside /usr). */
  extraReadOnly?: string[];
  bwrapPath?: string;
  /** Hosts a networked setup may reach through the egress proxy (default: the package registries). */
  egress?: EgressPolicy;
  /** fd the seccomp program is read from (bwrap `--seccomp`). */
  seccompFd?: number;
  /**
   * Walls left out, for the self-check's tests only (a sandbox missing one must fail its check):
   * `network` shares the host's network, `nested-userns` lets the command open user namespaces.
   */
  without?: ReadonlyArray<"network" | "nested-userns">;
}

/** The sandbox's own user namespace, with no further ones (`unshare -Ur` fails inside), and the seccomp filter. */
function userns(uid: string, seccompFd: number | undefined, nested = false): string[] {
  return [
    "--unshare-user",
    ...(nested ? [] : ["--disable-userns"]),
    "--uid",
    uid,
    "--gid",
    uid,
    "--cap-drop",
    "ALL",
    ...(seccompFd === undefined ? [] : ["--seccomp", String(seccompFd)]),
  ];
}

/** argv running `spec.command` under bubblewrap (exported for tests and the benchmark). */
export function bwrapArgv(spec: SandboxRunSpec, opts: BwrapOptions = {}): string[] {
  const prefix = nodePrefix();
  const ro = [...(prefix ? [prefix] : []), ...(opts.extraReadOnly ?? [])].flatMap((d) => ["--ro-bind-try", d, d]);
  const env = {
    ...SANDBOX_ENV,
    PATH: [...(prefix ? [`${prefix}/bin`] : []), SANDBOX_ENV.PATH].join(":"),
    ...(spec.egressDir ? egressEnv() : {}),
  };
  const asRoot = process.getuid?.() === 0;
  const uid = String(spec.uid ?? SANDBOX_UID);
  const bwrap = opts.bwrapPath ?? "bwrap";
  const tmp = String(spec.limits.tmpBytes ?? DEFAULT_TMP_BYTES);
  const shareNet = opts.without?.includes("network") ?? false;
  const nested = opts.without?.includes("nested-userns") ?? false;
  return [
    bwrap,
    // A root worker must not map the sandbox's uid to root through a user namespace: bwrap mounts as root, the command drops to its own uid, then a second bwrap gives it a user namespace of its own (uid mapped to itself).
    ...(asRoot
      ? [
          "--unshare-ipc",
          "--unshare-pid",
          "--unshare-uts",
          "--unshare-cgroup-try",
          // Always: a networked setup reaches out only through the egress proxy's socket (egressBinds).
          ...(shareNet ? [] : ["--unshare-net"]),
        ]
      : [
          "--unshare-all",
          ...(shareNet ? ["--share-net"] : []),
          ...userns(String(SANDBOX_UID), opts.seccompFd, nested),
        ]),
    "--die-with-parent",
    "--new-session",
    "--hostname",
    "sandbox",
    ...systemDirs(),
    ...ro,
    ...egressBinds(spec),
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    "--perms",
    "1777",
    "--size",
    tmp,
    "--tmpfs",
    "/dev/shm",
    "--remount-ro",
    "/dev",
    "--perms",
    "1777",
    "--size",
    tmp,
    "--tmpfs",
    "/tmp",
    "--perms",
    "0777",
    "--dir",
    SANDBOX_ENV.HOME ?? "/tmp/home",
    "--bind",
    spec.workspace,
    "/workspace",
    "--chdir",
    "/workspace",
    "--clearenv",
    ...Object.entries(env).flatMap(([k, v]) => ["--setenv", k, v]),
    "--",
    ...(asRoot
      ? [
          "setpriv",
          `--reuid=${uid}`,
          `--regid=${uid}`,
          "--clear-groups",
          "--inh-caps=-all",
          "--bounding-set=-all",
          "--no-new-privs",
          "--",
          bwrap,
          ...userns(uid, opts.seccompFd, nested),
          "--dev-bind",
          "/",
          "/",
          "--",
        ]
      : []),
    ...prlimitArgs(spec.limits),
    ...egressCommand(spec),
  ];
}

/** bubblewrap: namespaces (own network: loopback only, plus the egress proxy for a networked setup; own pids; own user namespace with no nested ones), an unprivileged uid, read-only system, only the workspace writable, bounded tmpfs, a seccomp filter; totals in a cgroup and a disk budget (`runWalled`). */
export function bwrapRunner(opts: BwrapOptions = {}): SandboxRunner {
  const policy = opts.egress ?? parseAllowedHosts(DEFAULT_ALLOWED_HOSTS);
  return {
    backend: "bwrap",
    run: (spec: SandboxRunSpec): Promise<SandboxResult> =>
      withEgress(policy, spec, (s) => runWalled(s, (seccompFd) => bwrapArgv(s, { ...opts, seccompFd }))),
  };
}
