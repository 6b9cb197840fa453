import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ROOT } from "./paths";

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), "utf8");
const dockerfile = read("infra/docker/Dockerfile");
/** The final stage: what the containers run. */
const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));

interface SeccompRule {
  names: string[];
  action: string;
  args?: unknown[];
  includes?: { caps?: string[]; arches?: string[]; minKernel?: string };
  excludes?: { caps?: string[] };
}
interface SeccompProfile {
  defaultAction: string;
  archMap: { architecture: string }[];
  syscalls: SeccompRule[];
}
const profile = JSON.parse(read("deploy/seccomp/fixloop-worker.json")) as SeccompProfile;

/** Syscalls a container with no capability may make whatever their arguments (on x86_64 and arm64). */
function allowedWithoutCaps(p: SeccompProfile): Set<string> {
  const out = new Set<string>();
  for (const r of p.syscalls) {
    if (r.action !== "SCMP_ACT_ALLOW" || r.args?.length || r.includes?.caps?.length) continue;
    const arches = r.includes?.arches;
    if (arches && !arches.some((a) => a === "amd64" || a === "arm64")) continue;
    for (const n of r.names) out.add(n);
  }
  return out;
}

describe("the worker image", () => {
  it("installs bubblewrap and the toolchains the detected runners call", () => {
    for (const pkg of [
      "bubblewrap",
      "git",
      "python3",
      "python3-pytest",
      "golang-go",
      "rustc-web",
      "cargo-web",
      "openjdk-17-jdk-headless",
      "maven",
      "make",
    ])
      expect(runtimeStage, pkg).toMatch(new RegExp(`[\\s"]${pkg.replace(/[.+]/g, "\\$&")}[\\s/;"]`));
    expect(runtimeStage).toMatch(/ARG TOOLCHAINS="python go rust java"/);
    // Node is the base image's own.
    expect(runtimeStage).toMatch(/^\nFROM node:\d+-bookworm-slim/);
    expect(runtimeStage).toContain("bwrap --version");
  });

  it("runs as an unprivileged user and keeps the code root's", () => {
    const users = [...runtimeStage.matchAll(/^USER\s+(\S+)/gm)].map((m) => m[1]);
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    expect(runtimeStage.indexOf("COPY --from=build")).toBeLessThan(runtimeStage.lastIndexOf("USER "));
    expect(runtimeStage).not.toMatch(/chown[^\n]*\/app/);
  });

  it("compiles the worker, the API and the migration job at build time, and every service runs that output on plain node", () => {
    const build = dockerfile.slice(0, dockerfile.lastIndexOf("\nFROM "));
    expect(build).toMatch(/node infra\/docker\/bundle\.mjs worker api migrate/);
    expect(runtimeStage).toMatch(/^CMD \["node", "api\/dist\/main\.mjs"\]$/m);
    // tsx only builds (the localize thread's script), never runs a service.
    expect(runtimeStage).not.toMatch(/tsx/);
    const compose = parse(read("docker-compose.yml")) as {
      services: Record<string, { command?: string[]; build?: unknown }>;
    };
    expect(compose.services.worker?.command).toEqual(["node", "worker/dist/main.mjs"]);
    expect(compose.services.api?.command).toEqual(["node", "api/dist/main.mjs"]);
    expect(compose.services.migrations?.command).toEqual(["node", "infra/dist/migrate.mjs"]);
    for (const [name, s] of Object.entries(compose.services))
      if (s.build) expect(s.command?.join(" "), name).not.toMatch(/tsx|\.ts\b/);
  });
});

describe("the compose worker's confinement", () => {
  const compose = parse(read("docker-compose.yml")) as {
    services: Record<
      string,
      {
        privileged?: boolean;
        cap_add?: string[];
        cap_drop?: string[];
        security_opt?: string[];
        volumes?: string[];
        user?: string;
      }
    >;
  };

  it("gives the worker our seccomp profile, no capability, no Docker socket, not privileged", () => {
    const worker = compose.services.worker;
    expect(worker).toBeDefined();
    const opts = worker?.security_opt ?? [];
    expect(opts).toContain("seccomp=./deploy/seccomp/fixloop-worker.json");
    expect(opts).toContain("no-new-privileges:true");
    expect(worker?.cap_drop).toEqual(["ALL"]);
    expect(worker?.user).toBeUndefined();
    for (const [name, s] of Object.entries(compose.services)) {
      expect(s.privileged, name).toBeFalsy();
      expect(s.cap_add, name).toBeUndefined();
      expect(s.security_opt ?? [], name).not.toContain("seccomp=unconfined");
      expect((s.volumes ?? []).join(" "), name).not.toMatch(/docker\.sock/);
    }
  });
});

describe("the worker's seccomp profile", () => {
  const allowed = allowedWithoutCaps(profile);

  it("is a Docker profile that refuses what it does not list", () => {
    expect(profile.defaultAction).toBe("SCMP_ACT_ERRNO");
    expect(profile.archMap.map((a) => a.architecture)).toEqual(
      expect.arrayContaining(["SCMP_ARCH_X86_64", "SCMP_ARCH_AARCH64"]),
    );
    for (const r of profile.syscalls) {
      expect(r.names.length).toBeGreaterThan(0);
      expect(["SCMP_ACT_ALLOW", "SCMP_ACT_ERRNO"]).toContain(r.action);
    }
  });

  it("lets an unprivileged bwrap build its namespaces and root", () => {
    for (const s of ["clone", "unshare", "mount", "umount2", "pivot_root", "execve", "prctl", "seccomp"])
      expect(allowed, s).toContain(s);
    // glibc falls back to clone when clone3 says ENOSYS, as under Docker's default.
    expect(allowed).not.toContain("clone3");
  });

  it("still refuses what Docker's default refuses a container without capabilities", () => {
    for (const s of [
      "kexec_load",
      "kexec_file_load",
      "init_module",
      "finit_module",
      "delete_module",
      "bpf",
      "perf_event_open",
      "open_by_handle_at",
      "setns",
      "keyctl",
      "add_key",
      "request_key",
      "reboot",
      "swapon",
      "settimeofday",
      "clock_settime",
      "iopl",
      "ioperm",
      "acct",
      "fsopen",
      "fsmount",
      "move_mount",
      "open_tree",
      "syslog",
      "userfaultfd",
      "chroot",
    ])
      expect(allowed, s).not.toContain(s);
  });

  it("differs from Docker's default only by the bwrap rule", () => {
    const bwrapRules = profile.syscalls.filter((r) => r.names.includes("pivot_root"));
    expect(bwrapRules).toHaveLength(1);
    expect([...(bwrapRules[0]?.names ?? [])].sort()).toEqual(["clone", "mount", "pivot_root", "umount2", "unshare"]);
  });
});
