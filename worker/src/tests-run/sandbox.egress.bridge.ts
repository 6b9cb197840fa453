import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { SandboxResult, SandboxRunSpec } from "./sandbox";
import { startEgressProxy } from "./sandbox.egress";
import type { EgressPolicy } from "./sandbox.egress.policy";

/** Where the proxy's directory appears inside the sandbox, and the loopback port the bridge listens on. */
export const EGRESS_MOUNT = "/run/fixloop-egress";
export const EGRESS_PORT = 3128;

/**
 * Runs inside the sandbox with the host's node (bound read-only): listens on the sandbox's own
 * 127.0.0.1:port, forwards each connection to the worker's proxy socket, then runs the command and
 * exits with its status. Everything else in the sandbox sees only loopback.
 */
const BRIDGE_SOURCE = `"use strict";
const net = require("node:net");
const { spawn } = require("node:child_process");
const [port, sock, command] = process.argv.slice(2);
const server = net.createServer((c) => {
  const u = net.connect(sock);
  c.pipe(u);
  u.pipe(c);
  c.on("error", () => u.destroy());
  u.on("error", () => c.destroy());
  c.on("close", () => u.destroy());
  u.on("close", () => c.destroy());
});
server.listen(Number(port), "127.0.0.1", () => {
  const child = spawn("/bin/sh", ["-c", command], { stdio: "inherit" });
  child.on("error", (e) => { process.stderr.write(String(e) + "\\n"); process.exit(127); });
  child.on("exit", (code, signal) => process.exit(code === null ? 128 + (require("node:os").constants.signals[signal] || 1) : code));
});
server.on("error", (e) => { process.stderr.write("sandbox egress bridge: " + e.message + "\\n"); process.exit(125); });
`;

/** Proxy settings for the tools setups use (npm, yarn, pip, cargo, go, maven/gradle, curl, node's fetch). */
export function egressEnv(): Record<string, string> {
  const url = `http://127.0.0.1:${EGRESS_PORT}`;
  const java = `-Dhttp.proxyHost=127.0.0.1 -Dhttp.proxyPort=${EGRESS_PORT} -Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort=${EGRESS_PORT}`;
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    npm_config_proxy: url,
    npm_config_https_proxy: url,
    YARN_HTTP_PROXY: url,
    YARN_HTTPS_PROXY: url,
    PIP_PROXY: url,
    CARGO_HTTP_PROXY: url,
    NODE_USE_ENV_PROXY: "1",
    JAVA_TOOL_OPTIONS: java,
  };
}

/** The host's node, at a path that exists inside the sandbox (its prefix is bound read-only). */
const nodeBin = () => fs.realpathSync(process.execPath);

/** bwrap arguments binding the proxy's directory (read-only) into the sandbox. */
export function egressBinds(spec: SandboxRunSpec): string[] {
  // bwrap would create /run as 0700 (root's), which the sandbox user could not traverse.
  return spec.egressDir ? ["--perms", "0755", "--dir", "/run", "--ro-bind", spec.egressDir, EGRESS_MOUNT] : [];
}

/** The argv that runs `spec.command` behind the bridge (or plainly when the run has no egress). */
export function egressCommand(spec: SandboxRunSpec): string[] {
  return spec.egressDir
    ? [nodeBin(), `${EGRESS_MOUNT}/bridge.cjs`, String(EGRESS_PORT), `${EGRESS_MOUNT}/proxy.sock`, spec.command]
    : ["/bin/sh", "-c", spec.command];
}

/**
 * Runs a networked spec behind a fresh proxy (one per run, so the blocked list is the run's own);
 * a spec without network runs as is. The result lists the hosts the proxy refused or could not reach.
 */
export async function withEgress(
  policy: EgressPolicy,
  spec: SandboxRunSpec,
  run: (spec: SandboxRunSpec) => Promise<SandboxResult>,
): Promise<SandboxResult> {
  if (!spec.network) return run({ ...spec, egressDir: undefined });
  const proxy = await startEgressProxy(policy);
  try {
    await fsp.writeFile(path.join(proxy.dir, "bridge.cjs"), BRIDGE_SOURCE, { mode: 0o644 });
    const r = await run({ ...spec, egressDir: proxy.dir });
    const blocked = proxy.blocked();
    return blocked.length ? { ...r, blockedHosts: blocked } : r;
  } finally {
    await proxy.close();
  }
}
