import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { testRedisUrl } from "@fixloop/testkit";
import type { SandboxLimits } from "./sandbox";
import { bwrapRunner } from "./sandbox.bwrap";
import { forbiddenAddress, parseAllowedHosts } from "./sandbox.egress.policy";

// Hostile: a networked setup (what `.fixloop.yml` `network: true` grants) tries to reach the host.
const limits: SandboxLimits = {
  timeoutMs: 30_000,
  memoryBytes: 4 * 1024 ** 3,
  processes: 128,
  fileBytes: 64 * 1024 ** 2,
  outputBytes: 64 * 1024,
};
let root: string;
let workspace: string;
let hostService: net.Server;
let hostPort: number;
let registry: http.Server;
let registryPort: number;
const hostAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((a) => a && a.family === "IPv4" && !a.internal)?.address;

/**
 * A proxy client that needs nothing but node (curl may be missing): `get <url>` sends a plain
 * forward request to $HTTP_PROXY; `tunnel <host:port> <path>` opens a CONNECT tunnel and sends
 * a GET through it. Prints the body, or the proxy's refusal.
 */
const PROXY_CLIENT = `const net = require("node:net"); const http = require("node:http");
const p = new URL(process.env.HTTP_PROXY); const [mode, target, path] = process.argv.slice(2);
if (mode === "get") http.get({ host: p.hostname, port: p.port, path: target }, (r) => r.pipe(process.stdout)).on("error", (e) => console.log("ERR " + e.code));
else {
  const s = net.connect(Number(p.port), p.hostname, () => s.write("CONNECT " + target + " HTTP/1.1\\r\\nHost: " + target + "\\r\\n\\r\\n"));
  let sent = false;
  s.on("data", (d) => {
    const t = d.toString();
    if (!sent && t.startsWith("HTTP/1.1 200")) { sent = true; s.write("GET " + path + " HTTP/1.1\\r\\nHost: " + target + "\\r\\nConnection: close\\r\\n\\r\\n"); }
    else process.stdout.write(t);
  });
  s.on("error", (e) => console.log("ERR " + e.code));
}
`;
const get = (url: string) => `node pc.cjs get ${url}`;
const tunnel = (target: string, p = "/") => `node pc.cjs tunnel ${target} ${p}`;

const listen = (s: net.Server) =>
  new Promise<number>((resolve) => s.listen(0, "0.0.0.0", () => resolve((s.address() as net.AddressInfo).port)));

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "fixloop-egress-test-"));
  workspace = path.join(root, "w");
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(workspace, "pc.cjs"), PROXY_CLIENT);
  fs.chownSync(workspace, 65534, 65534);
  // Stands for Postgres/Redis/the API on the host: it answers anyone who connects.
  hostService = net.createServer((c) => c.end("HOST-SERVICE-REACHED\n"));
  hostPort = await listen(hostService);
  // Stands for a package registry, allowed explicitly by ip:port.
  registry = http.createServer((req, res) => res.end(`{"name":"left-pad","via":"${req.url}"}`));
  registryPort = await listen(registry);
});
afterAll(() => {
  hostService.close();
  registry.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const setup = (command: string, allowed: string[]) =>
  bwrapRunner({ egress: parseAllowedHosts(allowed) }).run({ workspace, command, network: true, limits });

/** A node one-liner connecting straight to host:port, printing what it got or the error code. */
const direct = (host: string, port: number) =>
  `node -e 'const s=require("net").connect(${port},"${host}");s.setTimeout(3000,()=>{console.log("TIMEOUT");s.destroy()});s.on("data",d=>process.stdout.write("GOT "+d));s.on("error",e=>console.log("ERR "+e.code))'`;

describe("a networked setup under bwrap reaches only the egress proxy", () => {
  it("cannot connect to a service listening on the host's loopback or its own interface address", async () => {
    const r = await setup(`${direct("127.0.0.1", hostPort)}; ${direct(hostAddress ?? "127.0.0.1", hostPort)}`, []);
    expect(r.output).not.toContain("HOST-SERVICE-REACHED");
    expect(r.output.match(/ERR E[A-Z]+/g)).toHaveLength(2);
  });

  it("cannot reach the real Postgres and Redis of this test run, directly or through the proxy, even with localhost allowed by name", async () => {
    const pg = Number(new URL(inject("pgAdminUrl")).port);
    const redis = Number(new URL(testRedisUrl()).port);
    // Postgres answers an SSLRequest with one byte, Redis a PING with +PONG or -NOAUTH: any answer is "GOT".
    const probe = (host: string, port: number, hex: string) =>
      `node -e 'const s=require("net").connect(${port},"${host}",()=>s.write(Buffer.from("${hex}","hex")));s.setTimeout(3000,()=>{console.log("TIMEOUT");s.destroy()});s.on("data",d=>{console.log("GOT "+JSON.stringify(String(d)));s.destroy()});s.on("error",e=>console.log("ERR "+e.code))'`;
    const SSL_REQUEST = "0000000804d2162f";
    const PING = Buffer.from("PING\r\n").toString("hex");
    const r = await setup(
      [
        probe("127.0.0.1", pg, SSL_REQUEST),
        probe("127.0.0.1", redis, PING),
        probe(hostAddress ?? "127.0.0.1", pg, SSL_REQUEST),
        probe(hostAddress ?? "127.0.0.1", redis, PING),
        tunnel(`127.0.0.1:${pg}`),
        tunnel(`localhost:${pg}`),
        tunnel(`localhost:${redis}`),
        get(`http://localhost:${redis}/`),
        "echo done",
      ].join("; "),
      ["localhost", `localhost:${pg}`, `localhost:${redis}`],
    );
    expect(r.output).toContain("done");
    expect(r.output).not.toContain("GOT");
    expect(r.output.match(/^ERR E[A-Z]+$/gm)).toHaveLength(4);
    expect(r.output.match(/Blocked by the sandbox/g)).toHaveLength(4);
    expect(r.blockedHosts).toEqual([
      `127.0.0.1:${pg} (address not on the allowlist)`,
      `localhost:${pg} (resolves to a private, loopback or link-local address)`,
      `localhost:${redis} (resolves to a private, loopback or link-local address)`,
    ]);
  });

  it("the proxy refuses the host's loopback, private ranges and the metadata address, and lists them as blocked", async () => {
    const r = await setup(
      [
        get(`http://127.0.0.1:${hostPort}/`),
        tunnel(`127.0.0.1:${hostPort}`),
        get("http://169.254.169.254/latest/meta-data/"),
        tunnel("10.0.0.1:443"),
        get(`http://localhost:${hostPort}/`),
        get("http://evil.example.invalid/"),
        "echo done",
      ].join("; "),
      ["localhost", `localhost:${hostPort}`],
    );
    expect(r.output).toContain("done");
    expect(r.output).not.toContain("HOST-SERVICE-REACHED");
    expect(r.output.match(/Blocked by the sandbox/g)).toHaveLength(6);
    expect(r.blockedHosts).toEqual([
      `127.0.0.1:${hostPort} (address not on the allowlist)`,
      "169.254.169.254:80 (address not on the allowlist)",
      "10.0.0.1:443 (address not on the allowlist)",
      `localhost:${hostPort} (resolves to a private, loopback or link-local address)`,
      "evil.example.invalid:80 (host not on the allowlist)",
    ]);
  });

  it("reaches a registry stand-in allowed by ip:port, over plain HTTP and CONNECT, and nothing else on that host", async () => {
    const r = await setup(
      [
        get(`http://127.0.0.1:${registryPort}/left-pad`),
        tunnel(`127.0.0.1:${registryPort}`, "/tunnel"),
        `node -e 'require("http").get({host:"127.0.0.1",port:${3128},path:"http://127.0.0.1:${registryPort}/node"},r=>r.pipe(process.stdout))'`,
        get(`http://127.0.0.1:${hostPort}/`),
      ].join("; echo; "),
      [`127.0.0.1:${registryPort}`],
    );
    expect(r.output).toContain('"via":"/left-pad"');
    expect(r.output).toContain('"via":"/tunnel"');
    expect(r.output).toContain('"via":"/node"');
    expect(r.output).not.toContain("HOST-SERVICE-REACHED");
    expect(r.blockedHosts).toEqual([`127.0.0.1:${hostPort} (address not on the allowlist)`]);
  });

  it("a worker that is not root gives a networked setup its own namespace too: only the proxy answers", async () => {
    const ws = fs.mkdtempSync(path.join(root, "nonroot-"));
    fs.chmodSync(root, 0o755);
    fs.copyFileSync(path.join(workspace, "pc.cjs"), path.join(ws, "pc.cjs"));
    for (const p of [ws, path.join(ws, "pc.cjs")]) fs.chownSync(p, 4321, 4321);
    const here = (f: string) => JSON.stringify(path.resolve(__dirname, f));
    const command = [
      direct("127.0.0.1", hostPort),
      direct(hostAddress ?? "127.0.0.1", hostPort),
      get(`http://127.0.0.1:${registryPort}/nonroot`),
    ].join("; ");
    const script = path.join(root, "nonroot.mts");
    fs.writeFileSync(
      script,
      `import { bwrapRunner } from ${here("sandbox.bwrap.ts")};
import { parseAllowedHosts } from ${here("sandbox.egress.policy.ts")};
const r = await bwrapRunner({ egress: parseAllowedHosts(["127.0.0.1:${registryPort}"]) }).run({
  workspace: ${JSON.stringify(ws)}, network: true, limits: ${JSON.stringify(limits)}, command: ${JSON.stringify(command)} });
console.log(JSON.stringify(r));`,
    );
    // Asynchronously, so this process's stand-ins answer whoever reaches them.
    const { stdout } = await promisify(execFile)(
      "setpriv",
      ["--reuid=4321", "--regid=4321", "--clear-groups", path.resolve("node_modules/.bin/tsx"), script],
      { env: { PATH: process.env.PATH ?? "", HOME: root }, encoding: "utf8" },
    );
    const r = JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as { output: string };
    expect(r.output).not.toContain("HOST-SERVICE-REACHED");
    expect(r.output.match(/ERR E[A-Z]+/g)).toHaveLength(2);
    expect(r.output).toContain('"via":"/nonroot"');
  });

  it("a run without network has no proxy at all", async () => {
    const r = await bwrapRunner({ egress: parseAllowedHosts([`127.0.0.1:${registryPort}`]) }).run({
      workspace,
      command: `env | grep -ci proxy; ls /run/fixloop-egress; ${direct("127.0.0.1", 3128)}`,
      network: false,
      limits,
    });
    expect(r.output).toMatch(/^0$/m);
    expect(r.output).toContain("ERR ECONNREFUSED");
    expect(r.blockedHosts).toBeUndefined();
  });
});

describe("the egress policy", () => {
  it("refuses loopback, private, link-local, mapped and host addresses; accepts a public one", () => {
    for (const ip of ["127.0.0.1", "10.1.2.3", "172.20.0.1", "192.168.1.1", "100.64.0.1", "169.254.169.254", "0.0.0.0"])
      expect(forbiddenAddress(ip), ip).not.toBeNull();
    for (const ip of [
      "::1",
      "::",
      "fd00::1",
      "fe80::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::7f00:1",
      "::ffff:0:7f00:1",
      "64:ff9b::a9fe:a9fe",
      "64:ff9b:1::a00:1",
      "2001:0:4136:e378::1",
      "fec0::1",
    ])
      expect(forbiddenAddress(ip), ip).not.toBeNull();
    if (hostAddress) expect(forbiddenAddress(hostAddress)).not.toBeNull();
    expect(forbiddenAddress("104.16.0.35")).toBeNull();
    expect(forbiddenAddress("2606:4700::6810:23")).toBeNull();
  });

  it("reads SANDBOX_ALLOWED_HOSTS and refuses entries it cannot read", () => {
    expect(parseAllowedHosts("registry.npmjs.org, *.pythonhosted.org, 127.0.0.1:4873").entries).toHaveLength(3);
    expect(() => parseAllowedHosts("10.0.0.1")).toThrow(/needs its port/);
    expect(() => parseAllowedHosts("http://x")).toThrow(/cannot read/);
  });
});
