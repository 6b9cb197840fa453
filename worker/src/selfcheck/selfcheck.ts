import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { SandboxBackend, SandboxCheck, SandboxMode, SandboxWall } from "@fixloop/contract";
import {
  HOST_ENV,
  sandboxRunUid,
  type SandboxLimits,
  type SandboxResult,
  type SandboxRunner,
} from "../tests-run/sandbox";
import { EGRESS_PORT } from "../tests-run/sandbox.egress.bridge";
import { handToSandbox } from "../tests-run/workspace";
import { EGRESS_SCRIPT, LIMIT_SCRIPTS, PROBE_SCRIPT } from "./selfcheck.probe";

export interface SelfCheckInput {
  backend: SandboxBackend;
  mode: SandboxMode;
  runner: SandboxRunner | null;
  /** The limits real runs get (the probes run under them; the limit attacks under small ones). */
  limits: SandboxLimits;
  /** Host paths that must not be visible inside (the worker's data dir, /etc/shadow, /root...). */
  hostPaths: string[];
  /** Where the check's scratch workspace is made (the workspace cache's filesystem). */
  scratchRoot: string;
  /**
   * The same sandbox with `allow` added to its egress allowlist (bwrap only): the egress probe
   * asks for an allowed name that resolves to the host's loopback, which the proxy must refuse
   * by the address it resolved (DNS rebinding).
   */
  egressRunner?: (allow: string) => SandboxRunner;
}

const MiB = 1024 * 1024;
/** The limit attacks run under these, so each is over in a second or so. */
const SMALL: Omit<SandboxLimits, "outputBytes" | "timeoutMs"> = {
  memoryBytes: 64 * MiB,
  totalMemoryBytes: 64 * MiB,
  processes: 16,
  fileBytes: 16 * MiB,
  diskBytes: 16 * MiB,
  tmpBytes: 16 * MiB,
};

function version(cmd: string, args: string[]): string | null {
  try {
    return execFileSync(cmd, args, { env: HOST_ENV, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

/** The host's non-loopback IPv4 addresses: a sandbox with the host's network would reach its listener there. */
function hostAddresses(): string[] {
  const all = Object.values(os.networkInterfaces()).flatMap((l) => l ?? []);
  return ["127.0.0.1", ...all.filter((a) => a.family === "IPv4" && !a.internal).map((a) => a.address)];
}

function report(r: SandboxResult): Record<string, unknown> | null {
  const line = r.output.split("\n").find((l) => l.startsWith("SELFCHECK "));
  try {
    return line ? (JSON.parse(line.slice("SELFCHECK ".length)) as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const tail = (r: SandboxResult) => r.output.trim().split("\n").slice(-2).join(" | ").slice(0, 200);

/**
 * Attacks each wall of this worker's sandbox once (a few seconds): a TCP connect from inside to a
 * listener on the host (loopback and its other addresses), host files, `unshare -U` inside, more
 * memory / processes / disk than allowed, and the egress proxy asked for private addresses (also
 * by an allowed name that resolves to one).
 * A wall is `held` only when the attack ran and was stopped; anything else is `missing`.
 */
export async function runSelfCheck(input: SelfCheckInput): Promise<SandboxCheck> {
  const started = Date.now();
  const versions = {
    bwrap: input.backend === "bwrap" ? version("bwrap", ["--version"]) : null,
    kernel: `${os.type()} ${os.release()}`,
  };
  const walls: Partial<Record<SandboxWall, "held" | "missing">> = {};
  const detail: Record<string, string> = {};
  const set = (wall: SandboxWall, why: string | null) => {
    walls[wall] = why ? "missing" : "held";
    if (why) detail[wall] = why;
  };
  const done = (totals: string | null): SandboxCheck => {
    const held = Object.values(walls).every((w) => w === "held") && Object.keys(walls).length > 0;
    return {
      backend: input.backend,
      mode: input.mode,
      ok: input.mode === "off-explicit" || (input.mode === "on" && held),
      walls,
      detail,
      totals,
      versions,
      durationMs: Date.now() - started,
      checkedAt: new Date().toISOString(),
    };
  };
  const { runner } = input;
  if (!runner) {
    const why = input.mode === "off-explicit" ? "SANDBOX_BACKEND=off" : "no sandbox (bwrap missing or unusable)";
    for (const w of ["network", "host-files", "userns", "memory", "processes", "disk", "egress"] as const) set(w, why);
    return done(null);
  }

  const listener = net.createServer((s) => s.destroy());
  await new Promise<void>((r) => listener.listen(0, "0.0.0.0", r));
  const port = (listener.address() as net.AddressInfo).port;
  await fs.mkdir(input.scratchRoot, { recursive: true });
  const dir = await fs.mkdtemp(path.join(input.scratchRoot, ".selfcheck-"));
  let totals: string | null = null;
  try {
    const probe = async (script: string, cfg: object, limits: SandboxLimits, network = false, via = runner) => {
      await fs.writeFile(path.join(dir, "probe.cjs"), script);
      await fs.writeFile(path.join(dir, "probe.json"), JSON.stringify(cfg));
      const uid = sandboxRunUid();
      await handToSandbox(dir, uid);
      const r = await via.run({ workspace: dir, command: "node probe.cjs", network, limits, uid, language: "node" });
      totals ??= r.totals ?? null;
      return r;
    };
    // Room for each egress target's 8 s on a loaded host: a probe answers in well under a second.
    const limits = { ...input.limits, timeoutMs: 45_000 };
    const walled = await probe(PROBE_SCRIPT, { hosts: hostAddresses(), port, paths: input.hostPaths }, limits);
    const seen = report(walled);
    const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);
    if (!seen)
      for (const w of ["network", "host-files", "userns"] as const) set(w, `probe did not run: ${tail(walled)}`);
    else {
      const reached = list(seen.reached);
      const visible = list(seen.visible);
      set("network", reached.length ? `reached the host at ${reached.join(", ")}` : null);
      set("host-files", visible.length ? `visible: ${visible.join(", ")}` : null);
      set("userns", typeof seen.userns === "string" ? seen.userns : null);
    }

    // `localhost` on the allowlist, resolved by the worker to its loopback: refused for its address.
    const rebound = `localhost:${port}`;
    const viaName = input.egressRunner?.(rebound);
    const targets = [`127.0.0.1:${port}`, "169.254.169.254:80", "10.0.0.1:443", ...(viaName ? [rebound] : [])];
    const egress = await probe(EGRESS_SCRIPT, { proxyPort: EGRESS_PORT, targets }, limits, true, viaName ?? runner);
    const answers = (report(egress)?.answers ?? null) as Record<string, string> | null;
    if (!answers) set("egress", `probe did not run: ${tail(egress)}`);
    else {
      const refused = (t: string) =>
        /^HTTP\/1\.[01] 403\b/.test(answers[t] ?? "") && (t !== rebound || /\(resolves to /.test(answers[t] ?? ""));
      const through = targets.filter((t) => !refused(t));
      set("egress", through.length ? `not refused: ${through.map((t) => `${t} (${answers[t]})`).join(", ")}` : null);
    }

    for (const wall of ["memory", "processes", "disk"] as const) {
      await fs.rm(dir, { recursive: true, force: true });
      await fs.mkdir(dir);
      const uid = sandboxRunUid();
      await handToSandbox(dir, uid);
      const r = await runner.run({
        workspace: dir,
        command: LIMIT_SCRIPTS[wall],
        network: false,
        limits: { ...SMALL, timeoutMs: 15_000, outputBytes: 4096 },
        uid,
        language: "node",
      });
      totals ??= r.totals ?? null;
      const ran = r.output.includes("STARTED");
      set(wall, !ran ? `attack did not start: ${tail(r)}` : r.output.includes("ESCAPED") ? "not enforced" : null);
    }
  } finally {
    listener.close();
    await fs.rm(dir, { recursive: true, force: true }).catch(() => {});
  }
  return done(totals);
}
